package probe

import (
	"fmt"
	"math"
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
	machine  machine // while the during samples were taken
}

// verdict: cut if the server sent GOAWAY or closed within the bound; latency_ok if no
// well-behaved request failed and the during-probe p95 stayed within latencyLimit, whose slack
// grows with the machine's run queue per CPU (up to MaxSlackScale); passed only with both.
// A p95 over the limit is the server's only when the machine cannot explain it: when it
// exceeds the limit by no more than the probe's own wake-ups were late, or the run queue was
// beyond what the slack allows for, the latency is not judged, and neither is the probe if the
// server cut it (NotJudged).
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
	baseP50, baseP95 := percentile(m.baseline.lat, 50), percentile(m.baseline.lat, 95)
	duringP95 := percentile(m.during.lat, 95)
	scale := m.machine.slackScale()
	limit := latencyLimit(baseP50, baseP95, m.factor, min(scale, MaxSlackScale))
	worstWake := percentile(m.machine.lates, 100)
	over := duringP95 - limit
	r.BaselineP50Ms, r.BaselineP95Ms = ms(baseP50), ms(baseP95)
	r.DuringP50Ms, r.DuringP95Ms = ms(percentile(m.during.lat, 50)), ms(duringP95)
	r.LatencyLimitMs = ms(limit)
	r.SchedDelayMaxMs, r.SchedDelayP99Ms = ms(worstWake), ms(percentile(m.machine.lates, 99))
	r.Load1m, r.CPUs, r.RunQueue, r.SlackScale = m.machine.load1, m.machine.cpus, round2(m.machine.runQueue), round2(scale)
	r.GoodFailures = m.baseline.failures + m.during.failures
	r.LatencyOK = r.GoodFailures == 0 && over <= 0
	busy := r.GoodFailures == 0 && over > 0 && (over <= worstWake || scale > MaxSlackScale)

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
	slow := fmt.Sprintf("well-behaved p95 %.1f ms during the probe > limit %.1f ms (baseline p95 %.1f ms)", r.DuringP95Ms, r.LatencyLimitMs, r.BaselineP95Ms)
	var latPart string
	switch {
	case r.GoodFailures > 0:
		total := r.GoodFailures + len(m.baseline.lat) + len(m.during.lat)
		first := m.during.firstErr
		if m.baseline.failures > 0 {
			first = m.baseline.firstErr
		}
		latPart = fmt.Sprintf("%d of %d well-behaved requests failed (first: %v)", r.GoodFailures, total, oneLine(first))
	case busy && over <= worstWake:
		latPart = fmt.Sprintf("not judged, the machine too busy to tell: %s by %.1f ms, no more than the probe's own wake-ups were late; %s", slow, ms(over), r.machineText())
	case busy:
		latPart = fmt.Sprintf("not judged, the machine too busy to tell: %s with %.1f runnable tasks per CPU, beyond the %dx slack the limit allows for; %s", slow, r.RunQueue/float64(r.CPUs), MaxSlackScale, r.machineText())
	case !r.LatencyOK:
		latPart = fmt.Sprintf("%s; %s", slow, r.machineText())
	case scale > 1:
		latPart = fmt.Sprintf("well-behaved p95 %.1f ms (baseline %.1f ms, limit %.1f ms with the slack x%.1f for the machine's run queue)", r.DuringP95Ms, r.BaselineP95Ms, r.LatencyLimitMs, r.SlackScale)
	default:
		latPart = fmt.Sprintf("well-behaved p95 %.1f ms (baseline %.1f ms, limit %.1f ms)", r.DuringP95Ms, r.BaselineP95Ms, r.LatencyLimitMs)
	}

	r.Result, r.Reason = Failed, cutPart+"; "+latPart
	switch {
	case r.Cut && r.LatencyOK:
		r.Result = Passed
	case r.Cut && busy:
		r.Result, r.Reason = NotJudged, latPart+"; "+cutPart
	case r.Cut: // the failing part first
		r.Reason = latPart + "; " + cutPart
	}
	return r
}

// machineText says what the machine was doing, for a reason.
func (r Result) machineText() string {
	load := "unknown"
	if r.Load1m >= 0 {
		load = fmt.Sprintf("%.2f", r.Load1m)
	}
	return fmt.Sprintf("machine: run queue %.1f on %d CPUs (slack x%.1f), load %s, the probe's wake-ups up to %.1f ms late",
		r.RunQueue, r.CPUs, r.SlackScale, load, r.SchedDelayMaxMs)
}

// round2 keeps two decimals.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// errorResult is a probe that could not run.
func errorResult(p Probe, err error) Result {
	return Result{Probe: p.Name, CVE: p.CVE, ServerAction: ActionError, Result: Failed, Reason: "probe could not run: " + oneLine(err),
		Load1m: -1, RunQueue: -1, CPUs: cpus()}
}

func oneLine(err error) string {
	if err == nil {
		return "no error"
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
