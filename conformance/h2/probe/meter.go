package probe

import (
	"sync"
	"time"
)

// meter is the latency verdict's concurrent control: a goroutine of the probe's own that sleeps
// WakeupTick over and over and records, at each wake, how late it woke and how many tasks the
// machine had runnable. No server is involved, so what it sees is the machine: other
// containers' load, the hypervisor's steal, the probe's own process.
type meter struct {
	mu    sync.Mutex
	ticks []tick // in time order
	stop  chan struct{}
	done  chan struct{}
}

// tick is one wake: when, how much later than asked, and the run queue then (-1: unknown).
type tick struct {
	at       time.Time
	late     time.Duration
	runnable int
}

func startMeter(every time.Duration) *meter {
	m := &meter{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		t := time.NewTimer(every)
		defer t.Stop()
		for {
			start := time.Now()
			t.Reset(every)
			select {
			case <-m.stop:
				return
			case <-t.C:
				now := time.Now() // the channel's time is when the timer fired, not when we ran
				_, runnable := readLoadavg()
				m.mu.Lock()
				m.ticks = append(m.ticks, tick{at: now, late: max(now.Sub(start)-every, 0), runnable: runnable})
				m.mu.Unlock()
			}
		}
	}()
	return m
}

// close stops the meter and waits for its goroutine.
func (m *meter) close() {
	close(m.stop)
	<-m.done
}

// lates returns how late the probe woke in [from, to].
func (m *meter) lates(from, to time.Time) []time.Duration {
	var out []time.Duration
	m.each(from, to, func(t tick) { out = append(out, t.late) })
	return out
}

// runQueue is the mean run queue in the given windows (pairs of from, to); -1 without a sample.
func (m *meter) runQueue(windows ...[2]time.Time) float64 {
	sum, n := 0, 0
	for _, w := range windows {
		m.each(w[0], w[1], func(t tick) {
			if t.runnable >= 0 {
				sum += t.runnable
				n++
			}
		})
	}
	if n == 0 {
		return -1
	}
	return float64(sum) / float64(n)
}

func (m *meter) each(from, to time.Time, f func(tick)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range m.ticks {
		if !t.at.Before(from) && !t.at.After(to) {
			f(t)
		}
	}
}
