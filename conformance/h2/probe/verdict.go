package probe

import (
	"fmt"
	"strings"
	"time"
)

// measured is everything a verdict is computed from.
type measured struct {
	out      outcome
	frames   int64         // sent in all
	elapsed  time.Duration // from the start of the flood to its last frame
	baseline samples
	during   samples
	factor   float64
}

// verdict: cut if the server sent GOAWAY or closed within the bound; latency_ok if no
// well-behaved request failed and the during-probe p95 stayed within latencyLimit; passed
// only with both.
func verdict(p Probe, m measured) Result {
	r := Result{Probe: p.Name, CVE: p.CVE, ServerAction: ActionNothing, FramesSent: m.frames, CutAfterMs: ms(m.elapsed)}
	switch {
	case m.out.goAway:
		r.ServerAction, r.GoAwayCode = ActionGoAway, m.out.code.String()
	case m.out.closed:
		r.ServerAction = ActionClosed
	}
	r.Cut = m.out.isCut()
	if r.Cut {
		r.FramesSent, r.CutAfterMs = m.out.cutFrames, ms(m.out.cutAt)
	}
	baseP95 := percentile(m.baseline.lat, 95)
	duringP95 := percentile(m.during.lat, 95)
	limit := latencyLimit(baseP95, m.factor)
	r.BaselineP50Ms, r.BaselineP95Ms = ms(percentile(m.baseline.lat, 50)), ms(baseP95)
	r.DuringP50Ms, r.DuringP95Ms = ms(percentile(m.during.lat, 50)), ms(duringP95)
	r.GoodFailures = m.baseline.failures + m.during.failures
	r.LatencyOK = r.GoodFailures == 0 && duringP95 <= limit

	var cutPart string
	switch r.ServerAction {
	case ActionGoAway:
		cutPart = fmt.Sprintf("server sent GOAWAY %s after %d frames / %.0f ms", r.GoAwayCode, r.FramesSent, r.CutAfterMs)
	case ActionClosed:
		cutPart = fmt.Sprintf("server closed the connection without GOAWAY after %d frames / %.0f ms", r.FramesSent, r.CutAfterMs)
	default:
		cutPart = fmt.Sprintf("not cut: the abusive connection was still open at the bound (%d frames / %.0f ms)", r.FramesSent, r.CutAfterMs)
		if m.out.stalled {
			cutPart += ", the server had stopped reading it"
		}
	}
	var latPart string
	switch {
	case r.GoodFailures > 0:
		total := r.GoodFailures + len(m.baseline.lat) + len(m.during.lat)
		first := m.during.firstErr
		if m.baseline.failures > 0 {
			first = m.baseline.firstErr
		}
		latPart = fmt.Sprintf("%d of %d well-behaved requests failed (first: %v)", r.GoodFailures, total, oneLine(first))
	case !r.LatencyOK:
		latPart = fmt.Sprintf("well-behaved p95 %.1f ms during the probe > limit %.1f ms (baseline p95 %.1f ms)", r.DuringP95Ms, ms(limit), r.BaselineP95Ms)
	default:
		latPart = fmt.Sprintf("well-behaved p95 %.1f ms (baseline %.1f ms, limit %.1f ms)", r.DuringP95Ms, r.BaselineP95Ms, ms(limit))
	}

	r.Result, r.Reason = Failed, cutPart+"; "+latPart
	switch {
	case r.Cut && r.LatencyOK:
		r.Result = Passed
	case r.Cut: // the failing part first
		r.Reason = latPart + "; " + cutPart
	}
	return r
}

// errorResult is a probe that could not run.
func errorResult(p Probe, err error) Result {
	return Result{Probe: p.Name, CVE: p.CVE, ServerAction: ActionError, Result: Failed, Reason: "probe could not run: " + oneLine(err)}
}

func oneLine(err error) string {
	if err == nil {
		return "no error"
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
