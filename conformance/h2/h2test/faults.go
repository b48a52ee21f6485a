package h2test

import "strings"

// Fault makes the raw server break one rule; faults combine as bits. Zero is a correct server.
type Fault uint

const (
	// IgnoreClientWindow sends DATA without regard to the client's stream and connection windows.
	IgnoreClientWindow Fault = 1 << iota
	// IgnoreInitialWindowChange leaves open streams' windows alone when the client changes
	// SETTINGS_INITIAL_WINDOW_SIZE (so neither a reduction nor an overflow is noticed).
	IgnoreInitialWindowChange
	// AcceptWindowOverrun never enforces its own receive windows.
	AcceptWindowOverrun
	// LeakResetStreamWindow counts DATA on reset or closed streams against the connection window
	// but never credits it back.
	LeakResetStreamWindow
	// NoPaddingCredit credits only data octets, not the Pad Length field and padding.
	NoPaddingCredit
	// RejectEmptyDataAtZeroWindow answers an empty DATA frame that arrives at window 0 with
	// RST_STREAM FLOW_CONTROL_ERROR.
	RejectEmptyDataAtZeroWindow
	// AcceptBadTE serves requests whose te header is not "trailers".
	AcceptBadTE
	// SendPrioritiesTwo announces SETTINGS_NO_RFC7540_PRIORITIES=2.
	SendPrioritiesTwo
	// WaitForBigWindow sends no DATA until 1 KiB of window is open (silly-window avoidance gone
	// wrong: a 16-byte window stalls).
	WaitForBigWindow

	// Shapes a correct server may have, not faults: they combine with the faults above.

	// HugeConnWindow opens a 2^31-1 connection window (nginx, Apache) instead of 1 MiB.
	HugeConnWindow
	// LazyConnCredit credits the connection window only once half of it is used (nghttp2's
	// default), and stream windows at once as before.
	LazyConnCredit
	// EchoUpload answers POST /upload with the body it received instead of its byte count
	// (nghttpd --echo-upload).
	EchoUpload
	// GoAwayOnResetStreamData answers DATA on a stream the client reset with GOAWAY NO_ERROR and
	// closes the connection (lighttpd; §5.1 lets a server end the connection then).
	GoAwayOnResetStreamData
	// WaitForSomeWindow sends no DATA until 512 bytes of window are open: legal, as long as the
	// client opens that much without waiting for DATA first.
	WaitForSomeWindow

	// RejectPaddedData answers any padded DATA frame with GOAWAY PROTOCOL_ERROR (a fault: haproxy
	// 3.0 takes a frame's padding for the next frame header).
	RejectPaddedData
	// ResetOnWindowOverflow answers a SETTINGS_INITIAL_WINDOW_SIZE change that overflows stream
	// windows with RST_STREAM FLOW_CONTROL_ERROR on each, not GOAWAY (a fault of nghttp2, nginx
	// and lighttpd).
	ResetOnWindowOverflow

	// The faults of issue #27, each passed by the cases of its time.

	// IgnoreStreamWindow sends DATA within the client's connection window and frame size but
	// without regard to its stream windows.
	IgnoreStreamWindow
	// NoPaddingCharge charges only data octets to its receive windows (so a padded frame that
	// overruns them passes) but credits every octet, Pad Length and padding included.
	NoPaddingCharge
	// IgnoreClientInitialWindow opens every stream's send window at 65,535, whatever
	// SETTINGS_INITIAL_WINDOW_SIZE the client sent.
	IgnoreClientInitialWindow

	// RejectLargeWindowUpdate answers a stream WINDOW_UPDATE that takes the window past 2^30
	// with RST_STREAM FLOW_CONTROL_ERROR, as if windows ended there.
	RejectLargeWindowUpdate

	// RoundRobin is a shape, not a fault: it writes once all input read so far is processed, one
	// DATA frame per stream in turn (a write scheduler), instead of each stream to its limit.
	RoundRobin
	// SmallFrames is a shape, not a fault: DATA frames of at most 4 KiB (nginx writes 8 KiB
	// chunks), so a frame can fit a small window where a full-sized one would not.
	SmallFrames
)

// String names the set bits, joined by "+", for test names.
func (f Fault) String() string {
	var names []string
	for bit := Fault(1); bit <= f; bit <<= 1 {
		if f&bit != 0 {
			names = append(names, FaultNames[bit])
		}
	}
	if len(names) == 0 {
		return "correct"
	}
	return strings.Join(names, "+")
}

// FaultNames names each fault, for test names.
var FaultNames = map[Fault]string{
	IgnoreClientWindow:          "ignores-client-window",
	IgnoreInitialWindowChange:   "ignores-initial-window-change",
	AcceptWindowOverrun:         "accepts-window-overrun",
	LeakResetStreamWindow:       "leaks-reset-stream-window",
	NoPaddingCredit:             "no-padding-credit",
	RejectEmptyDataAtZeroWindow: "rejects-empty-data-at-zero-window",
	AcceptBadTE:                 "accepts-te-gzip",
	SendPrioritiesTwo:           "sends-no-rfc7540-priorities-2",
	WaitForBigWindow:            "waits-for-big-window",
	HugeConnWindow:              "huge-conn-window",
	LazyConnCredit:              "lazy-conn-credit",
	EchoUpload:                  "echoes-upload",
	GoAwayOnResetStreamData:     "goaway-on-reset-stream-data",
	WaitForSomeWindow:           "waits-for-512-bytes",
	RejectPaddedData:            "rejects-padded-data",
	ResetOnWindowOverflow:       "resets-on-window-overflow",
	IgnoreStreamWindow:          "ignores-stream-window",
	NoPaddingCharge:             "no-padding-charge",
	IgnoreClientInitialWindow:   "ignores-client-initial-window",
	RejectLargeWindowUpdate:     "rejects-large-window-update",
	RoundRobin:                  "round-robin",
	SmallFrames:                 "small-frames",
}
