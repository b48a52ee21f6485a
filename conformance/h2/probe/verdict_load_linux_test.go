package probe

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestVerdictUnderLoad: on a machine loaded with two CPU-bound processes per CPU, a server
// that cuts the flood and keeps serving, only as slowly as the busy machine lets its one event
// loop work through the flood, still passes; and a server that holds the well-behaved client
// while the abusive connection is open still fails on latency, under the same load. Linux
// only: the run queue comes from /proc/loadavg.
func TestVerdictUnderLoad(t *testing.T) {
	loadMachine(t, 2*runtime.NumCPU())
	lim := testLimits()
	lim.Grace = Grace // the stall lasts until the abusive connection is gone: the full grace
	loop := startFakeServer(t, fakeOpts{loopWork: 60 * time.Millisecond, cutAfter: floodThreshold + 100, goAway: true})
	stall := startFakeServer(t, fakeOpts{stall: true, cutAfter: 1000, goAway: true})
	for _, name := range []string{"rapid-reset", "zero-window-dribble"} {
		t.Run("busy-loop/"+name, func(t *testing.T) {
			r := runProbeWithin(t, loop, name, lim)
			loaded(t, r)
			idle := max(10*r.BaselineP95Ms, r.BaselineP95Ms+float64(LatencySlack.Milliseconds())) // the limit before #27
			t.Logf("p95 %.1f ms: limit %.1f ms at slack x%.2f, %.1f ms as if the machine were idle", r.DuringP95Ms, r.LatencyLimitMs, r.SlackScale, idle)
			if r.Result != Passed {
				t.Errorf("got %s: %s; want passed", r.Result, r.Reason)
			}
		})
		t.Run("stalling/"+name, func(t *testing.T) {
			r := runProbeWithin(t, stall, name, lim)
			loaded(t, r)
			if r.Result != Failed || !r.Cut || r.LatencyOK || !strings.HasPrefix(r.Reason, "well-behaved p95") {
				t.Errorf("got %s (cut %v, latency_ok %v): %s; want failed on latency", r.Result, r.Cut, r.LatencyOK, r.Reason)
			}
		})
	}
}

// loaded checks the premise: the verdict saw the load.
func loaded(t *testing.T, r Result) {
	t.Helper()
	if r.SlackScale < 2 {
		t.Errorf("the load did not register: run queue %.1f on %d CPUs", r.RunQueue, r.CPUs)
	}
}
