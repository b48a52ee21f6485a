package quictrace

import (
	"fmt"
	"time"
)

// Goodput is the measurement of upstream's goodput and crosstraffic cases: the payload bytes the
// client asked for, over the time from the server's first to its last 1-RTT packet in the trace
// (so handshake time and connection teardown do not count). Short-header packets are recognised
// without decryption.
func Goodput(t *Trace, payloadBytes int64) (kbps float64, span time.Duration, err error) {
	var first, last time.Time
	for _, d := range t.Datagrams {
		if d.Dir != ServerToClient {
			continue
		}
		for _, p := range d.Packets {
			if p.Type != Type1RTT {
				continue
			}
			if first.IsZero() {
				first = p.Time
			}
			last = p.Time
		}
	}
	span = last.Sub(first)
	if first.IsZero() || span <= 0 {
		return 0, 0, fmt.Errorf("goodput: the server sent no 1-RTT packets over a measurable time in the trace")
	}
	return float64(8*payloadBytes) / span.Seconds() / 1000, span, nil
}
