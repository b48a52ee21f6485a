package h2_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/conformance/h2"
	"github.com/wirelab/wirelab/conformance/h2/h2test"
	"golang.org/x/net/http2"
)

// run runs the selected cases against addr and returns the verdicts by case name.
func run(t *testing.T, addr string, scale float64, selection string) map[string]h2.Verdict {
	t.Helper()
	all, err := h2.Cases()
	if err != nil {
		t.Fatal(err)
	}
	sel, err := h2.Select(all, selection)
	if err != nil {
		t.Fatal(err)
	}
	target := &h2.Target{Addr: addr, TLS: h2test.ClientTLS(), TimeScale: scale}
	out := map[string]h2.Verdict{}
	for _, v := range h2.Run(context.Background(), target, sel) {
		out[v.Case] = v
		t.Logf("%-38s %-7s %5dms %s", v.Case, v.Result, v.ElapsedMS, v.Reason)
	}
	return out
}

// expect checks each verdict against want (case -> result, or "skipped:" and the cause; cases
// not named must pass).
func expect(t *testing.T, got map[string]h2.Verdict, want map[string]string) {
	t.Helper()
	for name, v := range got {
		w := want[name]
		if w == "" {
			w = h2.Passed
		}
		r := v.Result
		if r == h2.Skipped {
			r = skipped(v.Skip)
		}
		if r != w {
			t.Errorf("%s: %s (%s), want %s\n%s", name, r, v.Reason, w, strings.Join(v.Frames, "\n"))
		}
		if (v.Skip != "") != (v.Result == h2.Skipped) || v.Skip != "" && !slices.Contains(h2.SkipCauses, v.Skip) {
			t.Errorf("%s: result %s with skip cause %q", name, v.Result, v.Skip)
		}
	}
}

// skipped is what expect wants of a case skipped for cause.
func skipped(cause string) string { return h2.Skipped + ":" + cause }

// teCase is the one case x/net's server fails: it answers "te: gzip" with a 400 response and no
// RST_STREAM PROTOCOL_ERROR, where RFC 9113 §8.1.1 requires a stream error. The raw server is
// its passing reference.
const teCase = "8.2.2-te-not-trailers"

// x/net's server with a 64 KiB stream window (nghttpd's, Apache's default), smaller than the
// frame size it accepts, so case 6.9.1 overruns a POST /upload in one frame.
func TestXNetServer(t *testing.T) {
	t.Parallel()
	addr := h2test.StartReference(t, &http2.Server{MaxUploadBufferPerStream: 65535})
	expect(t, run(t, addr, 1, "all"), map[string]string{teCase: h2.Failed})
}

// With x/net's defaults the stream window equals the largest frame (1 MiB): the receive-window
// case must take its GET-with-body path, and the window-sized cases must hold at 1 MiB.
func TestXNetServerDefaults(t *testing.T) {
	t.Parallel()
	addr := h2test.StartReference(t, &http2.Server{})
	got := run(t, addr, 1, "6.9.1-enforces-receive-window,6.9-reset-stream-connection-window,6.1,6.9.1-empty-end-stream-at-zero-window")
	expect(t, got, nil)
	if r := got["6.9.1-enforces-receive-window"].Reason; !strings.Contains(r, "GET /1m.bin with a body") {
		t.Errorf("receive-window case did not take the GET path: %s", r)
	}
}

func TestRawServerWithoutFaults(t *testing.T) {
	t.Parallel()
	expect(t, run(t, h2test.StartRaw(t, 0), 1, "all"), nil)
}

// Each misbehaving server must fail exactly the cases that check the rule it breaks, for the
// reason given. The 16-byte-window download is slow, so it runs only where it is expected to fail.
func TestMisbehavingServers(t *testing.T) {
	const tiny, reset = "6.9-tiny-window-updates", "6.9-reset-stream-connection-window"
	const stream = "6.9.1-respects-client-stream-window"
	withoutTiny := "6.9.1,6.9-reset-stream-connection-window,6.1,6.9.2,6.9.3,rfc9218,8.2.2"
	const padded, overflow = "6.1-padded-overrun", "6.9.2-initial-window-overflow"
	skips := map[h2test.Fault]map[string]string{h2test.AcceptWindowOverrun: {padded: h2.SkipWindowNotEnforced}}
	for _, tc := range []struct {
		fault h2test.Fault
		fails []string
		says  map[string]string // case -> a part of its reason
	}{
		{h2test.IgnoreClientWindow, []string{"6.9.3-window-reduction-in-flight", tiny, "6.9.1-respects-client-window", stream, overflow}, nil},
		{h2test.IgnoreInitialWindowChange, []string{overflow, "6.9.3-window-reduction-in-flight"}, nil},
		{h2test.ResetOnWindowOverflow, []string{overflow}, map[string]string{overflow: "RST_STREAM FLOW_CONTROL_ERROR on stream 1 after the SETTINGS"}},
		// Enforcing its window is the receiver's choice (§6.9 MAY): the padded overrun cannot tell
		// whether padding is charged, and says why.
		{h2test.AcceptWindowOverrun, []string{"6.9.1-enforces-receive-window"}, map[string]string{padded: "accepts DATA beyond its window even unpadded"}},
		{h2test.LeakResetStreamWindow, []string{reset}, map[string]string{reset: "leaked"}},
		// With a window too large to use up, the leak shows in the credit the server gives back.
		{h2test.LeakResetStreamWindow | h2test.HugeConnWindow, []string{reset}, map[string]string{reset: "none of the 4194304 bytes on the reset stream came back"}},
		{h2test.NoPaddingCredit, []string{"6.1-padding-flow-control"}, nil},
		{h2test.RejectPaddedData, []string{"6.1-padding-flow-control", padded}, map[string]string{
			"6.1-padding-flow-control": "GOAWAY PROTOCOL_ERROR on legal padded DATA",
			padded:                     "GOAWAY PROTOCOL_ERROR after 65536 octets in 1 DATA frame(s), the last padded",
		}},
		{h2test.RejectEmptyDataAtZeroWindow, []string{"6.9.1-empty-end-stream-at-zero-window"}, nil},
		{h2test.AcceptBadTE, []string{teCase}, nil},
		{h2test.WaitForBigWindow, []string{tiny}, map[string]string{tiny: "never sent DATA while less than 1 KiB of window was open"}},

		// Issue #27. A server ignoring the client's stream windows, its frames kept small by the
		// connection window (in turn per stream or each stream to its limit) or by its own frame
		// size, passes the windows case 6.9.1-respects-client-window; the stream-window case,
		// whose credit never follows a frame it could excuse, fails it on the frame that overran.
		{h2test.IgnoreStreamWindow | h2test.RoundRobin, []string{"6.9.3-window-reduction-in-flight", tiny, stream},
			map[string]string{stream: "DATA s=1 len=16384 took the stream 8384 bytes beyond its window: 16384 received against SETTINGS_INITIAL_WINDOW_SIZE=8000 (ACKed)"}},
		{h2test.IgnoreStreamWindow, []string{"6.9.3-window-reduction-in-flight", tiny, stream, overflow}, nil},
		{h2test.IgnoreStreamWindow | h2test.SmallFrames, []string{"6.9.3-window-reduction-in-flight", tiny, stream, overflow},
			map[string]string{stream: "DATA s=1 len=4096 took the stream 192 bytes beyond its window: 8192 received against SETTINGS_INITIAL_WINDOW_SIZE=8000 (ACKed)"}},
		// Padding credited but not charged passes every other case: only an overrun made of
		// padding, refused unpadded, shows it.
		{h2test.NoPaddingCharge, []string{padded}, map[string]string{padded: "padding not charged: 65536 octets in 1 DATA frame(s), the last padded: 65280 data octets + Pad Length + 255 octets of padding on POST /upload (stream window 65535, connection window 1048576 before) answered nothing"}},
		{h2test.NoPaddingCharge | h2test.HugeConnWindow, []string{padded}, nil},
		// Stream windows opened at 65,535 whatever the client said: the overflow case names the
		// DATA the server sent at window 0 (it used to call the update that overflows the
		// server's 65,535 legal from the 0 it assumed).
		{h2test.IgnoreClientInitialWindow, []string{overflow, "6.9.3-window-reduction-in-flight", tiny, stream},
			map[string]string{overflow: "the server sent 65535 bytes of DATA on stream 1, 65535 beyond its window (SETTINGS_INITIAL_WINDOW_SIZE=0 (ACKed) + 0 granted by WINDOW_UPDATE), before any window change"}},
		// A legal update refused: the reason gives the window before and after by the frames.
		{h2test.RejectLargeWindowUpdate, []string{overflow},
			map[string]string{overflow: "RST_STREAM FLOW_CONTROL_ERROR on stream 1 in answer to WINDOW_UPDATE +2147483647, which took its window from 0 to 2147483647 (SETTINGS_INITIAL_WINDOW_SIZE=0 (ACKed), 0 bytes of DATA received): within 2^31-1, legal"}},
	} {
		t.Run(tc.fault.String(), func(t *testing.T) {
			t.Parallel()
			want := map[string]string{}
			selection := withoutTiny
			for _, name := range tc.fails {
				want[name] = h2.Failed
				if name == tiny {
					selection += "," + tiny
				}
			}
			for name, cause := range skips[tc.fault] {
				want[name] = skipped(cause)
			}
			got := run(t, h2test.StartRaw(t, tc.fault), 0.2, selection)
			expect(t, got, want)
			expectReasons(t, got, tc.says)
		})
	}
}

// Correct servers of other shapes: a ~2 GiB connection window, credited at once or only past
// half of it (nginx, Apache), an echoing /upload (nghttpd), a server that ends the connection over
// DATA on a reset stream (lighttpd), one that waits for 512 bytes of window before sending.
func TestServerShapes(t *testing.T) {
	const reset = "6.9-reset-stream-connection-window"
	uploads := "6.9.1-enforces-receive-window,6.9-reset-stream-connection-window,6.1,6.9.1-empty-end-stream-at-zero-window,6.9.2"
	for _, tc := range []struct {
		shape     h2test.Fault
		selection string
		skips     map[string]string // case -> cause
		says      map[string]string
	}{
		{h2test.HugeConnWindow, uploads, nil, map[string]string{reset: "before the reset stream's DATA"}},
		{h2test.HugeConnWindow | h2test.LazyConnCredit, uploads, map[string]string{reset: h2.SkipCreditWithheld}, map[string]string{reset: "a leak cannot be observed"}},
		{h2test.EchoUpload, uploads, nil, map[string]string{
			reset:                                   "echoed",
			"6.1-padding-flow-control":              "bytes echoed",
			"6.9.1-empty-end-stream-at-zero-window": "echoed",
		}},
		{h2test.GoAwayOnResetStreamData, reset, map[string]string{reset: h2.SkipConnectionEnded}, map[string]string{reset: "GOAWAY NO_ERROR (last stream 1) and closed the connection"}},
		{h2test.WaitForSomeWindow, "6.9-tiny-window-updates", nil, nil},
		{h2test.RoundRobin, "all", nil, nil},
		{h2test.SmallFrames, "all", nil, nil},
	} {
		t.Run(tc.shape.String(), func(t *testing.T) {
			t.Parallel()
			want := map[string]string{}
			for name, cause := range tc.skips {
				want[name] = skipped(cause)
			}
			got := run(t, h2test.StartRaw(t, tc.shape), 1, tc.selection)
			expect(t, got, want)
			expectReasons(t, got, tc.says)
		})
	}
}

// expectReasons checks that each named verdict's reason contains the given text.
func expectReasons(t *testing.T, got map[string]h2.Verdict, says map[string]string) {
	t.Helper()
	for name, part := range says {
		if v, ok := got[name]; !ok || !strings.Contains(v.Reason, part) {
			t.Errorf("%s: reason %q, want it to say %q", name, v.Reason, part)
		}
	}
}

// A server announcing SETTINGS_NO_RFC7540_PRIORITIES=2 is a connection error for the client
// (RFC 9218 §2.1), so every case fails, the priorities case saying why.
func TestServerSendingPrioritiesTwo(t *testing.T) {
	t.Parallel()
	got := run(t, h2test.StartRaw(t, h2test.SendPrioritiesTwo), 0.2, "rfc9218,6.9.1-enforces-receive-window")
	for name, v := range got {
		if v.Result != h2.Failed || !strings.Contains(v.Reason, "NO_RFC7540_PRIORITIES=2") {
			t.Errorf("%s: %s (%s), want failed naming NO_RFC7540_PRIORITIES=2", name, v.Result, v.Reason)
		}
	}
}
