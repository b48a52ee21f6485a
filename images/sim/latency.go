package main

import (
	"sync"
	"time"

	"github.com/wirelab/wirelab/internal/simstats"
)

// latency is a histogram of release lateness in 10 µs buckets up to 10 ms: evidence of how
// precisely the I/O layer keeps the engine's timing, reported in stats.json.
type latency struct {
	mu      sync.Mutex
	buckets [1001]uint64
	n       uint64
	max     time.Duration
}

func (l *latency) add(d time.Duration) {
	d = max(d, 0)
	i := min(int(d/(10*time.Microsecond)), len(l.buckets)-1)
	l.mu.Lock()
	l.buckets[i]++
	l.n++
	l.max = max(l.max, d)
	l.mu.Unlock()
}

func (l *latency) summary() simstats.Lateness {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := simstats.Lateness{Packets: l.n, MaxUs: float64(l.max.Microseconds())}
	q := func(p float64) float64 {
		target := uint64(p * float64(l.n))
		var acc uint64
		for i, c := range l.buckets {
			acc += c
			if acc > target {
				return float64(i * 10)
			}
		}
		return float64((len(l.buckets) - 1) * 10)
	}
	if l.n > 0 {
		s.P50Us, s.P99Us = q(0.5), q(0.99)
	}
	return s
}
