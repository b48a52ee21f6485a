//go:build !linux

package probe

import "time"

// burnCPU computes for d of wall time: without a thread CPU clock, an idle machine's measure.
func burnCPU(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}
