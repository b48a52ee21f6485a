package h2

import "fmt"

// Results a case can reach.
const (
	Passed  = "passed"
	Failed  = "failed"
	Skipped = "skipped" // the case ran, but the server's behaviour left nothing to judge (Skip says which)
)

// Why a case was skipped: the server behaviour that made it impossible to judge (Verdict.Skip).
// Each is decided at run time, from the server's frames; none is known before the case runs.
const (
	// SkipWindowTooLarge: the server's receive window is too large to fill or overrun in a test.
	SkipWindowTooLarge = "window-too-large"
	// SkipStreamEnded: the server ended a stream the case needed before the case could judge.
	SkipStreamEnded = "stream-ended"
	// SkipBodyConsumed: the server read and credited a GET's body, so no overrun could be forced.
	SkipBodyConsumed = "body-consumed"
	// SkipWindowNotEnforced: the server accepts DATA beyond its window (its right, §6.9), so how
	// it charges padding cannot be seen from an overrun.
	SkipWindowNotEnforced = "window-not-enforced"
	// SkipConnectionEnded: the server ended the connection over DATA on a reset stream (§5.1
	// allows it), so no later stream could show the connection window.
	SkipConnectionEnded = "connection-ended"
	// SkipCreditWithheld: the server has not credited enough of a huge window yet for a leak to
	// show (it may batch credit up to a threshold of its own).
	SkipCreditWithheld = "credit-withheld"
	// SkipNoSettingsAck: the download ended before the server acknowledged the SETTINGS the case
	// depends on.
	SkipNoSettingsAck = "settings-not-acked"
	// SkipWindowUsed: the server's DATA used the room the case needed (a window change that was to
	// overflow did not).
	SkipWindowUsed = "window-used"
)

// SkipCauses lists every cause a skipped verdict can give.
var SkipCauses = []string{
	SkipWindowTooLarge, SkipStreamEnded, SkipBodyConsumed, SkipWindowNotEnforced,
	SkipConnectionEnded, SkipCreditWithheld, SkipNoSettingsAck, SkipWindowUsed,
}

// Verdict is one case's outcome as h2check reports it.
type Verdict struct {
	Case        string   `json:"case"`
	Requirement string   `json:"requirement"`
	Result      string   `json:"result"`
	Skip        string   `json:"skip,omitempty"` // skipped only: one of the Skip* causes
	Reason      string   `json:"reason"`         // one line: the frame seen or missing
	Frames      []string `json:"frames"`         // short log, "> " sent, "< " received
	ElapsedMS   int64    `json:"elapsed_ms"`
}

// outcome is what a case function decides; the runner adds name, requirement and frames.
type outcome struct {
	result, skip, reason string
}

func pass(format string, a ...any) outcome { return outcome{Passed, "", fmt.Sprintf(format, a...)} }
func fail(format string, a ...any) outcome { return outcome{Failed, "", fmt.Sprintf(format, a...)} }

// skip reports that the server's behaviour, cause, left nothing to judge.
func skip(cause, format string, a ...any) outcome {
	return outcome{Skipped, cause, fmt.Sprintf(format, a...)}
}
