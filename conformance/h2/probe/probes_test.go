package probe

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// testLimits are small bounds for loopback. Frames stay at MaxFrames: x/net's control-frame
// queue only overflows past 10000 unanswered frames.
func testLimits() Limits {
	return Limits{
		Frames:           MaxFrames,
		Duration:         time.Second,
		Grace:            300 * time.Millisecond,
		BaselineRequests: 10,
		GoodInterval:     25 * time.Millisecond,
		GoodTimeout:      3 * time.Second,
		LatencyFactor:    DefaultLatencyFactor,
		DribbleStreams:   DribbleStreams,
		DribbleTick:      50 * time.Millisecond,
	}
}

func mustProbe(t *testing.T, name string) Probe {
	t.Helper()
	ps, err := Select(name)
	if err != nil || len(ps) != 1 {
		t.Fatalf("Select(%q) = %v, %v", name, ps, err)
	}
	return ps[0]
}

func runProbe(t *testing.T, target *Target, name string) Result {
	t.Helper()
	return runProbeWithin(t, target, name, testLimits())
}

func runProbeWithin(t *testing.T, target *Target, name string, lim Limits) Result {
	t.Helper()
	start := time.Now()
	r := Run(context.Background(), target, mustProbe(t, name), lim)
	b, _ := json.Marshal(r)
	t.Logf("%s (%v)", b, time.Since(start).Round(time.Millisecond))
	bound := lim.Duration + lim.Grace + DrainTime
	if r.FramesSent > int64(lim.Frames) || r.CutAfterMs > float64(bound.Milliseconds()) {
		t.Errorf("beyond the bound: %d frames (max %d), %.0f ms (max %v)", r.FramesSent, lim.Frames, r.CutAfterMs, bound)
	}
	if r.ServerAction == ActionError {
		t.Fatalf("probe could not run: %s", r.Reason)
	}
	if r.BaselineP95Ms <= 0 || r.DuringP95Ms <= 0 {
		t.Errorf("latencies not measured: baseline p95 %v, during p95 %v", r.BaselineP95Ms, r.DuringP95Ms)
	}
	return r
}

// TestXNetServerCuts: the probes x/net's server (golang.org/x/net/http2, defaults) cuts, each
// under the condition its mitigation needs, which the case states.
func TestXNetServerCuts(t *testing.T) {
	for _, c := range []struct {
		probe, action, code string
		opts                xnetOpts
		grace               time.Duration
	}{
		// Handlers beyond MAX_CONCURRENT_STREAMS (250) wait in a queue; more than 4x that
		// waiting is GOAWAY ENHANCE_YOUR_CALM. Only handlers that outlive their reset stream
		// (work not bound to the request's context) fill it.
		{"rapid-reset", ActionGoAway, "ENHANCE_YOUR_CALM", xnetOpts{abusiveWork: time.Second}, 0},
		{"made-you-reset", ActionGoAway, "ENHANCE_YOUR_CALM", xnetOpts{abusiveWork: time.Second}, 0},
		// A header block beyond MaxHeaderBytes is a connection error.
		{"continuation-flood", ActionGoAway, "PROTOCOL_ERROR", xnetOpts{}, 0},
		// More than 10000 control frames queued unwritten: the connection is closed, without
		// GOAWAY. Only once the socket buffers are full (see xnetOpts.sendBuffer), and only if
		// the server works through the flood before the probe drains its answers after the
		// grace: a full Grace, so that a slow (-race) server makes it too.
		{"ping-flood", ActionClosed, "", xnetOpts{sendBuffer: 32 << 10}, Grace},
		{"reset-flood", ActionClosed, "", xnetOpts{sendBuffer: 32 << 10}, Grace},
	} {
		t.Run(c.probe, func(t *testing.T) {
			lim := testLimits()
			if c.grace > 0 {
				lim.Grace = c.grace
			}
			r := runProbeWithin(t, xnetServer(t, c.opts), c.probe, lim)
			if r.Result != Passed || !r.Cut || !r.LatencyOK || r.ServerAction != c.action || r.GoAwayCode != c.code {
				t.Errorf("got %s (%s %s), want passed (%s %s): %s", r.Result, r.ServerAction, r.GoAwayCode, c.action, c.code, r.Reason)
			}
		})
	}
}

// TestXNetServerDoesNotCut: the probes x/net's server survives without cutting the abusive
// connection. Its cost stays bounded (the well-behaved client is served), but a cut is what the
// verdict asks for, so the verdict must be failed with "not cut" and latency_ok.
func TestXNetServerDoesNotCut(t *testing.T) {
	for _, c := range []struct {
		probe, why string
	}{
		{"settings-flood", "SETTINGS ACKs are a flag, not a queue: a flood coalesces into one ACK"},
		{"empty-frames", "no count of empty frames; each costs one frame's processing"},
		{"zero-window-dribble", "no timeout for slow readers by default; each handler blocks on its window"},
	} {
		t.Run(c.probe, func(t *testing.T) {
			r := runProbe(t, xnetServer(t, xnetOpts{}), c.probe)
			if r.Result != Failed || r.Cut || r.ServerAction != ActionNothing || !strings.HasPrefix(r.Reason, "not cut:") {
				t.Errorf("got %s (%s, cut %v): %s; want failed, not cut (%s)", r.Result, r.ServerAction, r.Cut, r.Reason, c.why)
			}
			if !r.LatencyOK || r.GoodFailures != 0 {
				t.Errorf("x/net stopped serving the well-behaved client: %s", r.Reason)
			}
		})
	}
}

// TestMisbehavingServer: a server that answers no flood and never closes fails every probe.
func TestMisbehavingServer(t *testing.T) {
	target := startFakeServer(t, fakeOpts{})
	for _, p := range All() {
		t.Run(p.Name, func(t *testing.T) {
			r := runProbe(t, target, p.Name)
			if r.Result != Failed || r.Cut || r.ServerAction != ActionNothing || !strings.HasPrefix(r.Reason, "not cut:") {
				t.Errorf("got %s (%s, cut %v): %s; want failed, not cut", r.Result, r.ServerAction, r.Cut, r.Reason)
			}
		})
	}
}

// TestStallingServer: a server that holds every response while a connection floods fails every
// probe on latency, even when it cuts the abusive connection. The probe keeps the abusive
// connection for the full grace, so the stall (~1 s) exceeds the latency limit at any slack the
// machine's load can earn (at most MaxSlackScale x LatencySlack): with the tests' short grace a
// 300 ms stall passed for the machine's load when other packages' tests ran beside it.
func TestStallingServer(t *testing.T) {
	lim := testLimits()
	lim.Grace = Grace
	for _, o := range []fakeOpts{{stall: true}, {stall: true, cutAfter: 1000, goAway: true}} {
		target := startFakeServer(t, o)
		for _, p := range All() {
			t.Run(p.Name, func(t *testing.T) {
				r := runProbeWithin(t, target, p.Name, lim)
				if r.Result != Failed || r.LatencyOK || r.Cut != (o.cutAfter > 0) {
					t.Errorf("got %s (latency_ok %v, cut %v): %s; want failed on latency", r.Result, r.LatencyOK, r.Cut, r.Reason)
				}
			})
		}
	}
}

// TestCuttingServer: a server that cuts every flood passes every probe, with GOAWAY or a plain
// close, whether the probe reads during the flood or only after it.
func TestCuttingServer(t *testing.T) {
	for _, o := range []fakeOpts{{cutAfter: 300, goAway: true}, {cutAfter: 300}} {
		target := startFakeServer(t, o)
		want, code := ActionClosed, ""
		if o.goAway {
			want, code = ActionGoAway, "ENHANCE_YOUR_CALM"
		}
		for _, p := range All() {
			t.Run(want+"/"+p.Name, func(t *testing.T) {
				r := runProbe(t, target, p.Name)
				if r.Result != Passed || r.ServerAction != want || r.GoAwayCode != code || r.FramesSent < 290 {
					t.Errorf("got %s (%s %s after %d frames): %s; want passed (%s %s after >= 300 frames)", r.Result, r.ServerAction, r.GoAwayCode, r.FramesSent, r.Reason, want, code)
				}
			})
		}
	}
}

// TestServerThatStopsReading: a server that stops reading a flooding connection but keeps it
// open has not cut it; the probe ends at its time bound and says so.
func TestServerThatStopsReading(t *testing.T) {
	r := runProbe(t, startFakeServer(t, fakeOpts{stopReading: true}), "ping-flood")
	if r.Result != Failed || r.Cut || !strings.Contains(r.Reason, "the server had stopped reading it") {
		t.Errorf("got %s (cut %v): %s; want failed, not cut, stopped reading", r.Result, r.Cut, r.Reason)
	}
	if r.CutAfterMs < float64(testLimits().Duration.Milliseconds()) {
		t.Errorf("the probe stopped at %.0f ms, before its time bound", r.CutAfterMs)
	}
}
