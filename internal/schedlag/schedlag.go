// Package schedlag measures the machine next to a measurement: how late a thread that asks to
// run every millisecond actually gets the CPU. The sim's threads, the probes and the echo server
// all wait like that on the same kernel and CPUs, so when this thread is late by milliseconds,
// so are they, and what they measure is the machine more than the sim. make sim-check runs it
// in a container of its own (`sim -lag`), scheduled as the cell's containers are.
package schedlag

import (
	"runtime"
	"slices"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Period is how long the sampler sleeps each time: the probes' spacing.
const Period = time.Millisecond

// Summary is the sampler's lateness over a window.
//
// P50Ms .. MaxMs are per wake-up. A stall of L ms is one late wake-up of the sampler but delays
// everything that wanted to run during it, so the Seen quantiles weigh each stall by its length:
// SeenP99Ms is the wait that 1% of the moments in the window would have had to sit out before
// getting the CPU (the remainder of the stall in progress), the delay a probe sent at a random
// moment meets at one scheduling point. Behind is the share of the window spent in stalls,
// Over1Ms the share of moments that would wait more than 1 ms.
type Summary struct {
	Samples   int     `json:"samples"`
	P50Ms     float64 `json:"lag_p50_ms"`
	P99Ms     float64 `json:"lag_p99_ms"`
	MaxMs     float64 `json:"lag_max_ms"`
	Behind    float64 `json:"behind"`
	Over1Ms   float64 `json:"over_1ms"`
	SeenP50Ms float64 `json:"seen_p50_ms"`
	SeenP99Ms float64 `json:"seen_p99_ms"`
}

// Sampler is one running measurement; Stop ends it.
type Sampler struct {
	stop chan struct{}
	done chan Summary
}

// Start begins sampling on an OS thread of its own.
func Start() *Sampler {
	s := &Sampler{stop: make(chan struct{}), done: make(chan Summary, 1)}
	go s.run()
	return s
}

// Stop ends the sampling and returns what it measured.
func (s *Sampler) Stop() Summary {
	close(s.stop)
	return <-s.done
}

func (s *Sampler) run() {
	// The thread stays locked: it ends with this goroutine and its 1 ns timer slack with it.
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	lags := make([]time.Duration, 0, 1<<14)
	ts := unix.NsecToTimespec(int64(Period))
	for {
		select {
		case <-s.stop:
			s.done <- Summarize(lags)
			return
		default:
		}
		t0 := time.Now()
		// A raw nanosleep, as the sim's release thread sleeps: the lateness is the kernel's
		// scheduling delay alone, not the Go runtime's (an ordinary syscall gives the P away and
		// may wait to get one back).
		unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
		lags = append(lags, time.Since(t0)-Period)
	}
}

// Summarize gives the distribution of lags (sorted in place).
func Summarize(lags []time.Duration) Summary {
	if len(lags) == 0 {
		return Summary{}
	}
	var window time.Duration
	for i, l := range lags {
		lags[i] = max(l, 0)
		window += Period + lags[i]
	}
	slices.Sort(lags)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	at := func(q float64) time.Duration { return lags[min(len(lags)-1, int(q*float64(len(lags))))] }
	return Summary{Samples: len(lags), P50Ms: ms(at(0.50)), P99Ms: ms(at(0.99)), MaxMs: ms(lags[len(lags)-1]),
		Behind: waitingShare(lags, 0, window), Over1Ms: waitingShare(lags, time.Millisecond, window), SeenP50Ms: ms(seen(lags, 0.50, window)), SeenP99Ms: ms(seen(lags, 0.99, window))}
}

// waitingShare is the share of window in which the rest of the stall in progress was longer
// than x: every stall L contributes the L-x at its start that still had more than x to go.
func waitingShare(lags []time.Duration, x, window time.Duration) float64 {
	var t time.Duration
	for _, l := range lags {
		t += max(l-x, 0)
	}
	return float64(t) / float64(window)
}

// seen is the q quantile of the wait a moment picked at random in window meets: the x at which
// the share of moments waiting longer than x falls to 1-q (0 when fewer are waiting at all).
func seen(sorted []time.Duration, q float64, window time.Duration) time.Duration {
	lo, hi := time.Duration(0), sorted[len(sorted)-1]
	if waitingShare(sorted, 0, window) <= 1-q {
		return 0
	}
	for hi-lo > time.Microsecond {
		mid := (lo + hi) / 2
		if waitingShare(sorted, mid, window) > 1-q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}
