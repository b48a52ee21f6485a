package probe

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Run executes one probe against t and returns its verdict. lim is clamped to the package's
// bounds (MaxFrames, MaxDuration, Grace, Attempts): no caller can make a probe heavier.
func Run(ctx context.Context, t *Target, p Probe, lim Limits) Result {
	lim = lim.clamp()
	return repeat(ctx, lim.Attempts, func() Result { return attempt(ctx, t, p, lim) })
}

// repeat runs attempts until one is judged (not NotJudged), at most n in all; the last one's
// verdict stands, and says which came before.
func repeat(ctx context.Context, n int, attempt func() Result) Result {
	var earlier []string
	for i := 1; ; i++ {
		r := attempt()
		r.Attempts = i
		if r.Result != NotJudged || i >= n || ctx.Err() != nil {
			if len(earlier) > 0 {
				r.Reason += "; earlier attempts not judged: " + strings.Join(earlier, ", ")
			}
			return r
		}
		earlier = append(earlier, fmt.Sprintf("#%d p95 %.1f ms > limit %.1f ms, slack x%.1f, wake-ups up to %.1f ms late",
			i, r.DuringP95Ms, r.LatencyLimitMs, r.SlackScale, r.SchedDelayMaxMs))
	}
}

// attempt runs the probe once: baseline, flood and grace while the well-behaved client is
// measured, the meter running throughout; the machine's run queue is sampled in a quiet
// MachineWindow before the flood and another after the grace.
func attempt(ctx context.Context, t *Target, p Probe, lim Limits) Result {
	load1, _ := readLoadavg()
	meter := startMeter(WakeupTick)
	defer meter.close()
	good := newGoodClient(t, lim.GoodTimeout)
	defer good.close()
	baseline := good.baseline(ctx, lim.BaselineRequests)
	if len(baseline.lat) == 0 {
		return errorResult(p, fmt.Errorf("the well-behaved client failed before the probe: %v", oneLine(baseline.firstErr)))
	}
	dctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	a, err := dialAbuser(dctx, t, p, lim)
	cancel()
	if err != nil {
		return errorResult(p, fmt.Errorf("abusive connection: %v", err))
	}
	quiet := time.Now() // the machine before the flood, with no request of ours in flight
	until(ctx, quiet.Add(MachineWindow))

	stop := make(chan struct{})
	window := time.Now() // the meter's window: the during-probe requests, first to last
	waitGood := good.during(ctx, lim.GoodInterval, stop)
	a.begin()
	_ = p.flood(a) // why it stopped (bound, cut) is in a's outcome
	a.end()
	elapsed, frames := time.Since(a.start), a.frames.Load()

	graceEnd := time.Now().Add(lim.Grace) // the server reacts to what is in flight; still measured
	a.settle(ctx, graceEnd)
	until(ctx, graceEnd)
	close(stop)
	a.close() // first: a server that stalls the well-behaved client may release it only now
	during := waitGood()
	windowEnd := time.Now()
	until(ctx, windowEnd.Add(MachineWindow)) // and after the grace, quiet again
	return verdict(p, measured{
		out: a.outcome(), frames: frames, elapsed: elapsed,
		baseline: baseline, during: during, factor: lim.LatencyFactor,
		machine: machine{
			load1: load1, cpus: cpus(),
			runQueue: meter.runQueue([2]time.Time{quiet, window}, [2]time.Time{windowEnd, time.Now()}),
			lates:    meter.lates(window, windowEnd),
		},
	})
}

// until waits for t or the end of ctx: a measuring window, not a synchronization.
func until(ctx context.Context, t time.Time) {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

// clamp keeps every bound within the package's constants and fills what is unset.
func (l Limits) clamp() Limits {
	d := Defaults()
	if l.Frames <= 0 || l.Frames > MaxFrames {
		l.Frames = d.Frames
	}
	if l.Duration <= 0 || l.Duration > MaxDuration {
		l.Duration = d.Duration
	}
	if l.Grace <= 0 || l.Grace > Grace {
		l.Grace = d.Grace
	}
	if l.BaselineRequests <= 0 {
		l.BaselineRequests = d.BaselineRequests
	}
	if l.GoodInterval <= 0 {
		l.GoodInterval = d.GoodInterval
	}
	if l.GoodTimeout <= 0 {
		l.GoodTimeout = d.GoodTimeout
	}
	if l.LatencyFactor <= 0 {
		l.LatencyFactor = d.LatencyFactor
	}
	if l.DribbleStreams <= 0 || l.DribbleStreams > DribbleStreams {
		l.DribbleStreams = d.DribbleStreams
	}
	if l.DribbleTick <= 0 {
		l.DribbleTick = d.DribbleTick
	}
	if l.Attempts <= 0 || l.Attempts > Attempts {
		l.Attempts = d.Attempts
	}
	return l
}
