package main

import (
	"errors"
	"time"
)

// sendPaced sends datagrams of size bytes for duration at bitsPerSecond (IP level; 0 = as fast
// as the socket takes them), calling fill before each send. It sends in 1 ms slots so pacing
// holds at high rates without a timer per packet. With batch > 1, send gets up to batch
// datagrams back to back in one buffer (for UDP GSO): as many as are due, full batches when
// unpaced. It returns the number of datagrams sent, and stops early only when the kernel
// refuses GSO.
func sendPaced(send func([]byte) error, size, batch int, bitsPerSecond int64, duration time.Duration, v6 bool, fill func(b []byte, seq uint64)) (uint64, error) {
	batch = max(batch, 1)
	buf := make([]byte, size*batch)
	wire := float64((size + ipOverhead(v6)) * 8)
	start := time.Now()
	var seq uint64
	for {
		elapsed := time.Since(start)
		if elapsed >= duration {
			return seq, nil
		}
		due := uint64(1 << 62)
		if bitsPerSecond > 0 {
			due = uint64(elapsed.Seconds() * float64(bitsPerSecond) / wire)
		}
		for seq < due {
			k := min(uint64(batch), due-seq)
			for i := range k {
				fill(buf[i*uint64(size):(i+1)*uint64(size)], seq+i)
			}
			if err := send(buf[:k*uint64(size)]); err != nil { // ENOBUFS and friends: the host queue is full, back off a slot
				if errors.As(err, new(*gsoRefused)) {
					return seq, err
				}
				break
			}
			seq += k
			if bitsPerSecond == 0 && seq%64 < k {
				break // re-check the clock about every 64 datagrams
			}
		}
		if bitsPerSecond > 0 {
			time.Sleep(time.Millisecond)
		}
	}
}
