package probe

import (
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
	base := samples{lat: lat(1, 1, 1, 1, 2)} // p95 2 ms: limit max(20 ms, 102 ms) = 102 ms
	cut := outcome{goAway: true, code: http2.ErrCodeEnhanceYourCalm, cutAt: 40 * time.Millisecond, cutFrames: 1234}
	for _, c := range []struct {
		name           string
		m              measured
		action, result string
		cut, latOK     bool
		reason         string
	}{
		{"goaway, fast", measured{out: cut, during: samples{lat: lat(3, 4, 101)}},
			ActionGoAway, Passed, true, true, "server sent GOAWAY ENHANCE_YOUR_CALM after 1234 frames / 40 ms; well-behaved p95 101.0 ms"},
		{"closed, fast", measured{out: outcome{closed: true, cutAt: time.Millisecond, cutFrames: 7}, during: samples{lat: lat(3)}},
			ActionClosed, Passed, true, true, "server closed the connection without GOAWAY after 7 frames / 1 ms"},
		{"goaway then close keeps the goaway", measured{out: outcome{goAway: true, closed: true, code: http2.ErrCodeProtocol}, during: samples{lat: lat(3)}},
			ActionGoAway, Passed, true, true, "server sent GOAWAY PROTOCOL_ERROR"},
		{"goaway, slow", measured{out: cut, during: samples{lat: lat(3, 4, 103)}},
			ActionGoAway, Failed, true, false, "well-behaved p95 103.0 ms during the probe > limit 102.0 ms (baseline p95 2.0 ms); server sent GOAWAY"},
		{"goaway, a failure", measured{out: cut, during: samples{lat: lat(3), failures: 1, firstErr: errors.New("stream\nreset")}},
			ActionGoAway, Failed, true, false, "1 of 7 well-behaved requests failed (first: stream reset); server sent GOAWAY"},
		{"nothing", measured{frames: 20000, elapsed: 812 * time.Millisecond, during: samples{lat: lat(3)}},
			ActionNothing, Failed, false, true, "not cut: the abusive connection was still open at the bound (20000 frames / 812 ms); well-behaved p95 3.0 ms"},
		{"nothing, stopped reading", measured{frames: 9, elapsed: 10 * time.Second, out: outcome{stalled: true}, during: samples{lat: lat(3)}},
			ActionNothing, Failed, false, true, "(9 frames / 10000 ms), the server had stopped reading it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.m.baseline, c.m.factor = base, 10
			r := verdict(Probe{Name: "x", CVE: "CVE-0"}, c.m)
			if r.ServerAction != c.action || r.Result != c.result || r.Cut != c.cut || r.LatencyOK != c.latOK || !strings.Contains(r.Reason, c.reason) {
				t.Errorf("got %s %s cut=%v latency_ok=%v %q\nwant %s %s cut=%v latency_ok=%v, reason containing %q",
					r.ServerAction, r.Result, r.Cut, r.LatencyOK, r.Reason, c.action, c.result, c.cut, c.latOK, c.reason)
			}
			if strings.Contains(r.Reason, "\n") {
				t.Errorf("reason spans lines: %q", r.Reason)
			}
		})
	}
}

func TestLatencyLimit(t *testing.T) {
	for _, c := range []struct {
		p95    time.Duration
		factor float64
		want   time.Duration
	}{
		{2 * time.Millisecond, 10, 102 * time.Millisecond},  // slack wins on a fast link
		{50 * time.Millisecond, 10, 500 * time.Millisecond}, // factor wins on a slow one
		{50 * time.Millisecond, 2, 150 * time.Millisecond},  // a smaller factor: slack again
		{0, 10, LatencySlack},
	} {
		if got := latencyLimit(c.p95, c.factor); got != c.want {
			t.Errorf("latencyLimit(%v, %v) = %v, want %v", c.p95, c.factor, got, c.want)
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
	l := Limits{Frames: 10 * MaxFrames, Duration: time.Hour, Grace: time.Hour, DribbleStreams: 1000}.clamp()
	if l.Frames != MaxFrames || l.Duration != MaxDuration || l.Grace != Grace || l.DribbleStreams != DribbleStreams {
		t.Errorf("clamp let through %+v", l)
	}
	small := Limits{Frames: 10, Duration: time.Millisecond}.clamp()
	if small.Frames != 10 || small.Duration != time.Millisecond || small.LatencyFactor != DefaultLatencyFactor {
		t.Errorf("clamp changed smaller bounds or left defaults unset: %+v", small)
	}
}
