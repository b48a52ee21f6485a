package h2

import "fmt"

// Results a case can reach.
const (
	Passed  = "passed"
	Failed  = "failed"
	Skipped = "skipped" // the server gave the case nothing to judge (reason says why)
)

// Verdict is one case's outcome as h2check reports it.
type Verdict struct {
	Case        string   `json:"case"`
	Requirement string   `json:"requirement"`
	Result      string   `json:"result"`
	Reason      string   `json:"reason"` // one line: the frame seen or missing
	Frames      []string `json:"frames"` // short log, "> " sent, "< " received
	ElapsedMS   int64    `json:"elapsed_ms"`
}

// outcome is what a case function decides; the runner adds name, requirement and frames.
type outcome struct {
	result, reason string
}

func pass(format string, a ...any) outcome { return outcome{Passed, fmt.Sprintf(format, a...)} }
func fail(format string, a ...any) outcome { return outcome{Failed, fmt.Sprintf(format, a...)} }
func skip(format string, a ...any) outcome { return outcome{Skipped, fmt.Sprintf(format, a...)} }
