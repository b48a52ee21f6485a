package main

import "time"

// sendPaced sends datagrams of size bytes for duration at bitsPerSecond (IP level; 0 = as fast
// as the socket takes them), calling fill before each send. It sends in 1 ms slots so pacing
// holds at high rates without a timer per packet. It returns the number of datagrams sent.
func sendPaced(send func([]byte) error, size int, bitsPerSecond int64, duration time.Duration, v6 bool, fill func(b []byte, seq uint64)) uint64 {
	buf := make([]byte, size)
	wire := float64((size + ipOverhead(v6)) * 8)
	start := time.Now()
	var seq uint64
	for {
		elapsed := time.Since(start)
		if elapsed >= duration {
			return seq
		}
		due := uint64(1 << 62)
		if bitsPerSecond > 0 {
			due = uint64(elapsed.Seconds() * float64(bitsPerSecond) / wire)
		}
		for seq < due {
			fill(buf, seq)
			if err := send(buf); err != nil { // ENOBUFS and friends: the host queue is full, back off a slot
				break
			}
			seq++
			if bitsPerSecond == 0 && seq%64 == 0 {
				break // re-check the clock now and then
			}
		}
		if bitsPerSecond > 0 {
			time.Sleep(time.Millisecond)
		}
	}
}
