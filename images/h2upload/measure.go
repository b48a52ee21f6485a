package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
)

// measure runs the repetitions one after the other. It returns an error only when the first
// repetition could not connect: the server is unreachable, and every other repetition would
// wait out its timeout the same way.
func measure(c config, tlsConf *tls.Config, log io.Writer) (result, error) {
	res := result{Proto: c.proto, Size: c.size, Reps: []repResult{}}
	for i := 1; i <= c.reps; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
		var r repResult
		if c.proto == "h2" {
			r = runH2(ctx, c, tlsConf)
		} else {
			r = runH1(ctx, c, tlsConf)
		}
		cancel()
		if r.connectFailed && i == 1 {
			return res, fmt.Errorf("%s: %s", c.addr, r.Reason)
		}
		res.Reps = append(res.Reps, r)
		if r.OK {
			fmt.Fprintf(log, "h2upload: %s rep %d/%d: %d bytes in %.3fs = %.1f Mbit/s\n", c.proto, i, c.reps, c.size, r.Seconds, r.Mbps)
		} else {
			fmt.Fprintf(log, "h2upload: %s rep %d/%d failed: %s\n", c.proto, i, c.reps, r.Reason)
		}
	}
	res.MedianMbps = medianMbps(res.Reps)
	return res, nil
}
