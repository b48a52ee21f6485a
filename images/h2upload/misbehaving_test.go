package main

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/http2"
)

var smallUpload = []string{"-proto", "h2", "-size", strconv.Itoa(testSize), "-reps", "1"}

// A server that never returns credit: the upload stops at the default 65535-byte windows and the
// repetition fails at its timeout, blamed on flow control.
func TestServerWithoutWindowUpdates(t *testing.T) {
	s := startFakeServer(t, misbehaviour{noCredit: true})
	code, stderr, res := runUpload(t, s.addr, s.caFile, append(smallUpload, "-timeout", "1s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := oneRep(t, res)
	if r.OK || !strings.Contains(r.Reason, "blocked on flow control") {
		t.Errorf("ok=%v reason %q, want a failure blocked on flow control", r.OK, r.Reason)
	}
	if r.BytesSent != defaultWindow {
		t.Errorf("client sent %d bytes, want exactly the 65535-byte window", r.BytesSent)
	}
	if received, overrun := s.stats(); received > defaultWindow || overrun {
		t.Errorf("server received %d bytes (overrun %v), more than the 65535 it allowed", received, overrun)
	}
	if r.H2 == nil || r.H2.BlockedMs < 500 || r.H2.StreamWindowUpdates.Count != 0 || r.H2.InitialConnectionWindowUpdate != 0 {
		t.Errorf("h2 record %+v: want ~1 s blocked and no WINDOW_UPDATE", r.H2)
	}
	if res.MedianMbps != nil {
		t.Errorf("median_mbps %v without a successful repetition, want null", *res.MedianMbps)
	}
}

func TestServerAnsweringWrongCount(t *testing.T) {
	s := startFakeServer(t, misbehaviour{answer: "12345", openConnWindow: 1 << 20})
	code, stderr, res := runUpload(t, s.addr, s.caFile, append(smallUpload, "-timeout", "10s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := oneRep(t, res)
	if r.OK || !strings.Contains(r.Reason, "12345") || r.BytesSent != testSize {
		t.Errorf("ok=%v reason %q sent %d, want a failure naming the count 12345 after the whole body", r.OK, r.Reason, r.BytesSent)
	}
	if _, overrun := s.stats(); overrun {
		t.Error("client overran the server's windows")
	}
}

func TestServerResettingWithFlowControlError(t *testing.T) {
	s := startFakeServer(t, misbehaviour{resetOnData: http2.ErrCodeFlowControl})
	code, stderr, res := runUpload(t, s.addr, s.caFile, append(smallUpload, "-timeout", "10s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := oneRep(t, res)
	if r.OK || !strings.Contains(r.Reason, "FLOW_CONTROL_ERROR") {
		t.Errorf("ok=%v reason %q, want a failure naming FLOW_CONTROL_ERROR", r.OK, r.Reason)
	}
}

func TestServerGoingAway(t *testing.T) {
	s := startFakeServer(t, misbehaviour{goAwayOnData: http2.ErrCodeEnhanceYourCalm})
	code, stderr, res := runUpload(t, s.addr, s.caFile, append(smallUpload, "-timeout", "10s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if r := oneRep(t, res); r.OK || !strings.Contains(r.Reason, "GOAWAY ENHANCE_YOUR_CALM") {
		t.Errorf("ok=%v reason %q, want a failure naming GOAWAY ENHANCE_YOUR_CALM", r.OK, r.Reason)
	}
}

// A stream that opens with a zero window and is then given one by a SETTINGS change (RFC 9113
// §6.9.2): nothing may be sent before the change, all of it after.
func TestInitialWindowSizeChangeOpensStream(t *testing.T) {
	s := startFakeServer(t, misbehaviour{
		settings:          []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: 0}},
		openConnWindow:    1 << 20,
		settingsOnHeaders: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: 256 << 10}},
	})
	code, stderr, res := runUpload(t, s.addr, s.caFile, append(smallUpload, "-timeout", "10s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := oneRep(t, res)
	if !r.OK {
		t.Fatalf("failed: %s", r.Reason)
	}
	if _, overrun := s.stats(); overrun {
		t.Error("client overran the server's windows")
	}
	if got := r.H2.InitialWindowSize; got != 256<<10 || len(r.H2.Settings) != 2 {
		t.Errorf("settings %+v, initial window in effect %d: want both SETTINGS recorded, 262144 in effect", r.H2.Settings, got)
	}
}
