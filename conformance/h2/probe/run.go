package probe

import (
	"context"
	"fmt"
	"time"
)

// Run executes one probe against t and returns its verdict. lim is clamped to the package's
// bounds (MaxFrames, MaxDuration, Grace): no caller can make a probe heavier.
func Run(ctx context.Context, t *Target, p Probe, lim Limits) Result {
	lim = lim.clamp()
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

	stop := make(chan struct{})
	waitGood := good.during(ctx, lim.GoodInterval, stop)
	a.begin()
	_ = p.flood(a) // why it stopped (bound, cut) is in a's outcome
	a.end()
	elapsed, frames := time.Since(a.start), a.frames.Load()

	graceEnd := time.Now().Add(lim.Grace) // the server reacts to what is in flight; still measured
	a.settle(ctx, graceEnd)
	select {
	case <-time.After(time.Until(graceEnd)):
	case <-ctx.Done():
	}
	close(stop)
	a.close() // first: a server that stalls the well-behaved client may release it only now
	return verdict(p, measured{
		out: a.outcome(), frames: frames, elapsed: elapsed,
		baseline: baseline, during: waitGood(), factor: lim.LatencyFactor,
	})
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
	return l
}
