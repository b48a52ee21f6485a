package h2test

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
)

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
}
