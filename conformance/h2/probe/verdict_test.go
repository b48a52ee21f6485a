package probe

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

func lat(ms ...float64) []time.Duration {
	var out []time.Duration
	for _, m := range ms {
		out = append(out, time.Duration(m*float64(time.Millisecond)))
	}
	return out
}

func TestVerdict(t *testing.T) {
	base := samples{lat: lat(1, 1, 1, 1, 2)} // p50 1 ms, p95 2 ms: limit max(10 ms, 102 ms) = 102 ms
	cut := outcome{goAway: true, code: http2.ErrCodeEnhanceYourCalm, cutAt: 40 * time.Millisecond, cutFrames: 1234}
	busy := machine{load1: 9.5, cpus: 2, runQueue: 8}    // slack x4: limit 402 ms
	crowded := machine{load1: 20, cpus: 2, runQueue: 20} // x10, beyond MaxSlackScale: limit 802 ms
	late := machine{load1: 1, cpus: 2, runQueue: 1, lates: lat(0.1, 30, 2)}
	for _, c := range []struct {
		name           string
		m              measured
		action, result string
		cut, latOK     bool
		reason         []string
	}{
		{"goaway, fast", measured{out: cut, during: samples{lat: lat(3, 4, 101)}},
			ActionGoAway, Passed, true, true, []string{"server sent GOAWAY ENHANCE_YOUR_CALM after 1234 frames / 40 ms; well-behaved p95 101.0 ms (baseline 2.0 ms, limit 102.0 ms)"}},
		{"closed, fast", measured{out: outcome{closed: true, cutAt: time.Millisecond, cutFrames: 7}, during: samples{lat: lat(3)}},
			ActionClosed, Passed, true, true, []string{"server closed the connection without GOAWAY after 7 frames / 1 ms"}},
		{"goaway then close keeps the goaway", measured{out: outcome{goAway: true, closed: true, code: http2.ErrCodeProtocol}, during: samples{lat: lat(3)}},
			ActionGoAway, Passed, true, true, []string{"server sent GOAWAY PROTOCOL_ERROR"}},
		{"goaway, slow", measured{out: cut, during: samples{lat: lat(3, 4, 103)}},
			ActionGoAway, Failed, true, false, []string{"well-behaved p95 103.0 ms during the probe > limit 102.0 ms (baseline p95 2.0 ms); machine:", "; server sent GOAWAY"}},
		{"goaway, a failure", measured{out: cut, during: samples{lat: lat(3), failures: 1, firstErr: errors.New("stream\nreset")}},
			ActionGoAway, Failed, true, false, []string{"1 of 7 well-behaved requests failed (first: stream reset); server sent GOAWAY"}},
		{"nothing", measured{frames: 20000, elapsed: 812 * time.Millisecond, during: samples{lat: lat(3)}},
			ActionNothing, Failed, false, true, []string{"not cut: the abusive connection was still open at the bound (20000 frames / 812 ms); well-behaved p95 3.0 ms"}},
		{"nothing, stopped reading", measured{frames: 9, elapsed: 10 * time.Second, out: outcome{stalled: true}, during: samples{lat: lat(3)}},
			ActionNothing, Failed, false, true, []string{"(9 frames / 10000 ms), the server had stopped reading it"}},

		// The machine: a busy one scales the slack; what it cannot explain fails.
		{"busy machine, slow within the scaled slack", measured{out: cut, machine: busy, during: samples{lat: lat(3, 4, 400)}},
			ActionGoAway, Passed, true, true, []string{"well-behaved p95 400.0 ms (baseline 2.0 ms, limit 402.0 ms with the slack x4.0 for the machine's run queue)"}},
		{"busy machine, slower than it explains", measured{out: cut, machine: busy, during: samples{lat: lat(3, 4, 500)}},
			ActionGoAway, Failed, true, false, []string{"well-behaved p95 500.0 ms during the probe > limit 402.0 ms (baseline p95 2.0 ms); machine: run queue 8.0 on 2 CPUs (slack x4.0), load 9.50, the probe's wake-ups up to 0.0 ms late; server sent"}},
		{"a failure on a busy machine", measured{out: cut, machine: crowded, during: samples{lat: lat(3), failures: 1, firstErr: errors.New("timeout")}},
			ActionGoAway, Failed, true, false, []string{"1 of 7 well-behaved requests failed (first: timeout)"}},
		{"the probe woke late by as much as the excess", measured{out: cut, machine: late, during: samples{lat: lat(3, 4, 130)}},
			ActionGoAway, NotJudged, true, false, []string{"not judged, the machine too busy to tell: well-behaved p95 130.0 ms during the probe > limit 102.0 ms (baseline p95 2.0 ms) by 28.0 ms, no more than the probe's own wake-ups were late; machine: run queue 1.0 on 2 CPUs (slack x1.0), load 1.00, the probe's wake-ups up to 30.0 ms late; server sent GOAWAY"}},
		{"the probe woke late, by less than the excess", measured{out: cut, machine: late, during: samples{lat: lat(3, 4, 133)}},
			ActionGoAway, Failed, true, false, []string{"well-behaved p95 133.0 ms during the probe > limit 102.0 ms"}},
		{"crowded machine, within the capped slack", measured{out: cut, machine: crowded, during: samples{lat: lat(3, 4, 800)}},
			ActionGoAway, Passed, true, true, []string{"limit 802.0 ms with the slack x10.0"}},
		{"crowded machine, over the capped slack", measured{out: cut, machine: crowded, during: samples{lat: lat(3, 4, 2000)}},
			ActionGoAway, NotJudged, true, false, []string{"not judged, the machine too busy to tell: well-behaved p95 2000.0 ms during the probe > limit 802.0 ms (baseline p95 2.0 ms) with 10.0 runnable tasks per CPU, beyond the 8x slack the limit allows for"}},
		{"not cut on a busy machine: failed, the cut first", measured{machine: late, during: samples{lat: lat(3, 4, 130)}},
			ActionNothing, Failed, false, false, []string{"not cut: the abusive connection was still open at the bound", "; not judged, the machine too busy to tell"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.m.baseline, c.m.factor = base, 10
			r := verdict(Probe{Name: "x", CVE: "CVE-0"}, c.m)
			ok := r.ServerAction == c.action && r.Result == c.result && r.Cut == c.cut && r.LatencyOK == c.latOK
			for _, want := range c.reason {
				ok = ok && strings.Contains(r.Reason, want)
			}
			if !ok {
				t.Errorf("got %s %s cut=%v latency_ok=%v %q\nwant %s %s cut=%v latency_ok=%v, reason containing %q",
					r.ServerAction, r.Result, r.Cut, r.LatencyOK, r.Reason, c.action, c.result, c.cut, c.latOK, c.reason)
			}
			if strings.Contains(r.Reason, "\n") {
				t.Errorf("reason spans lines: %q", r.Reason)
			}
		})
	}
}

// TestVerdictRecordsTheMachine: the machine's numbers are in the verdict, whatever it is.
func TestVerdictRecordsTheMachine(t *testing.T) {
	m := measured{out: outcome{closed: true}, baseline: samples{lat: lat(1, 2)}, during: samples{lat: lat(3)}, factor: 10,
		machine: machine{load1: 3.25, cpus: 4, runQueue: 10, lates: lat(0.5, 12, 1, 1)}}
	r := verdict(Probe{Name: "x"}, m)
	if r.Load1m != 3.25 || r.CPUs != 4 || r.RunQueue != 10 || r.SlackScale != 2.5 || r.SchedDelayMaxMs != 12 || r.SchedDelayP99Ms != 12 || r.LatencyLimitMs != 252 {
		t.Errorf("machine numbers: %+v", r)
	}
	unknown := machine{load1: -1, cpus: 2, runQueue: -1}
	if s := unknown.slackScale(); s != 1 {
		t.Errorf("an unknown run queue scales the slack by %v, want 1", s)
	}
}

// TestRepeat: an attempt the machine left unjudged runs again, up to the limit; a judged one
// ends the probe.
func TestRepeat(t *testing.T) {
	for _, c := range []struct {
		name     string
		results  []string
		want     string
		attempts int
	}{
		{"passed at once", []string{Passed}, Passed, 1},
		{"failed at once", []string{Failed, Passed}, Failed, 1},
		{"not judged, then passed", []string{NotJudged, Passed}, Passed, 2},
		{"not judged, then failed", []string{NotJudged, NotJudged, Failed}, Failed, 3},
		{"never judged", []string{NotJudged, NotJudged, NotJudged, Passed}, NotJudged, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := 0
			r := repeat(context.Background(), 3, func() Result {
				n++
				return Result{Result: c.results[n-1], Reason: "r", DuringP95Ms: 150, LatencyLimitMs: 102, SlackScale: 1, SchedDelayMaxMs: 60}
			})
			if r.Result != c.want || r.Attempts != c.attempts || n != c.attempts {
				t.Errorf("got %s after %d attempts (%d run), want %s after %d", r.Result, r.Attempts, n, c.want, c.attempts)
			}
			if earlier := strings.Contains(r.Reason, "; earlier attempts not judged: #1 p95 150.0 ms > limit 102.0 ms, slack x1.0, wake-ups up to 60.0 ms late"); earlier != (c.attempts > 1) {
				t.Errorf("reason %q: earlier attempts named %v, want %v", r.Reason, earlier, c.attempts > 1)
			}
		})
	}
}

func TestLatencyLimit(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		p50, p95      time.Duration
		factor, scale float64
		want          time.Duration
	}{
		{1 * ms, 2 * ms, 10, 1, 102 * ms},   // slack wins on a fast link
		{50 * ms, 52 * ms, 10, 1, 500 * ms}, // factor wins on a slow one
		{50 * ms, 52 * ms, 2, 1, 152 * ms},  // a smaller factor: slack again
		{1 * ms, 40 * ms, 10, 1, 140 * ms},  // one held-up baseline request does not multiply
		{1 * ms, 2 * ms, 10, 4, 402 * ms},   // a machine four times slower: four times the slack
		{50 * ms, 52 * ms, 10, 5, 552 * ms}, // ... whichever is larger
		{0, 0, 10, 1, LatencySlack},
	} {
		if got := latencyLimit(c.p50, c.p95, c.factor, c.scale); got != c.want {
			t.Errorf("latencyLimit(%v, %v, %v, %v) = %v, want %v", c.p50, c.p95, c.factor, c.scale, got, c.want)
		}
	}
}

func TestPercentile(t *testing.T) {
	s := lat(5, 1, 4, 2, 3, 6, 7, 8, 9, 10)
	if p := percentile(s, 50); p != 5*time.Millisecond {
		t.Errorf("p50 = %v", p)
	}
	if p := percentile(s, 95); p != 10*time.Millisecond {
		t.Errorf("p95 = %v", p)
	}
	if p := percentile(nil, 95); p != 0 {
		t.Errorf("p95 of nothing = %v", p)
	}
}

func TestSelect(t *testing.T) {
	all, err := Select("all")
	if err != nil || len(all) != 8 {
		t.Fatalf("all: %d probes, %v", len(all), err)
	}
	seen := map[string]bool{}
	for _, p := range all {
		if seen[p.Name] || p.CVE == "" || p.flood == nil {
			t.Errorf("probe %q: duplicate, no CVE or no flood", p.Name)
		}
		seen[p.Name] = true
	}
	two, err := Select("ping-flood, rapid-reset,ping-flood")
	if err != nil || len(two) != 2 || two[0].Name != "rapid-reset" || two[1].Name != "ping-flood" {
		t.Errorf("got %v, %v; want rapid-reset, ping-flood in report order", two, err)
	}
	if _, err := Select("rapid-reset,slowloris"); err == nil || !strings.Contains(err.Error(), `"slowloris"`) {
		t.Errorf("unknown probe: %v", err)
	}
}

func TestClampKeepsTheBounds(t *testing.T) {
	l := Limits{Frames: 10 * MaxFrames, Duration: time.Hour, Grace: time.Hour, DribbleStreams: 1000, Attempts: 100}.clamp()
	if l.Frames != MaxFrames || l.Duration != MaxDuration || l.Grace != Grace || l.DribbleStreams != DribbleStreams || l.Attempts != Attempts {
		t.Errorf("clamp let through %+v", l)
	}
	small := Limits{Frames: 10, Duration: time.Millisecond}.clamp()
	if small.Frames != 10 || small.Duration != time.Millisecond || small.LatencyFactor != DefaultLatencyFactor {
		t.Errorf("clamp changed smaller bounds or left defaults unset: %+v", small)
	}
}
