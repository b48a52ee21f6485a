package observed

import (
	"errors"
	"fmt"
	"time"
)

// The cases judged from what the server saw (conformance/grpcweb/cases.yml, observed: true).
const (
	// CancelCase: a call the client cancels reaches the server as a cancellation, never as a
	// clean end of stream (PROTOCOL-HTTP2.md Client Cancellation: RST_STREAM CANCEL).
	CancelCase = "client_cancel_reaches_server"
	// DeadlineCase: the client's deadline reaches the server (PROTOCOL-HTTP2.md Timeout: without
	// grpc-timeout a server assumes an infinite one).
	DeadlineCase = "deadline_reaches_server"
)

// The cancel case's calls.
const (
	// CallControl is a client stream of ControlMessages messages that ends normally: it shows the
	// chain carries a client stream to the server, so that the cut one can be judged.
	CallControl = "control"
	// CallCut is a client stream the client cancels after its first message, its request body
	// still open: over the HTTP/1.1 hop, a body cut off.
	CallCut = "cut"
	// CallAbandon is a server stream the client cancels after the first answer, its request
	// complete: over the HTTP/1.1 hop, a connection closed mid-response.
	CallAbandon = "abandon"
	// ControlMessages is how many messages the control stream sends.
	ControlMessages = 2
)

// DeadlineCalls are the deadline case's calls and the deadline each sets: grpc-go encodes the
// first in microseconds ("u", below 100 s), the second in milliseconds ("m").
var DeadlineCalls = []struct {
	Name    string
	Timeout time.Duration
}{{"deadline-20s", 20 * time.Second}, {"deadline-200s", 200 * time.Second}}

// DeadlineSlack is the rounding a deadline may gain or lose on the way: each re-encoding of
// grpc-timeout may round by one unit, a millisecond at most for the deadlines sent here, on the
// client, the edge and the origin.
const DeadlineSlack = 5 * time.Millisecond

// Judged reports whether testcase is judged from what the server saw.
func Judged(testcase string) bool { return testcase == CancelCase || testcase == DeadlineCase }

// Judge returns nil if the calls the server saw meet testcase's requirement, else an error saying
// what it saw instead (one line).
func Judge(testcase string, lines []Line) error {
	calls := map[string][]Line{}
	for _, l := range lines {
		if l.Kind == KindCall {
			calls[l.Call] = append(calls[l.Call], l)
		}
	}
	switch testcase {
	case CancelCase:
		return judgeCancel(calls)
	case DeadlineCase:
		return judgeDeadline(calls)
	}
	return fmt.Errorf("case %q is not judged from what the server saw", testcase)
}

// judgeCancel: the control stream arrived whole; the cut stream, if it reached the server at all,
// and the abandoned one were cancelled there. A cut stream that never arrived is fine: nothing
// was committed (a converter that buffers the request body never forwards a cut one). Every
// problem is named.
func judgeCancel(calls map[string][]Line) error {
	control := calls[CallControl]
	if len(control) == 0 {
		return errors.New("the control stream never reached the server: the chain carries no client stream, so a cut one cannot be judged")
	}
	if c := control[0]; c.End != EndEOS || c.Messages != ControlMessages {
		return fmt.Errorf("the control stream (%d messages, then its end) arrived as %s after %d message(s) (%s): the chain does not carry a client stream whole, so a cut one cannot be judged",
			ControlMessages, c.End, c.Messages, c.Error)
	}
	var problems []error
	for _, c := range calls[CallCut] {
		if c.End != EndCancelled {
			problems = append(problems, notCancelled("the client stream cut off after its first message", c))
		}
	}
	abandon := calls[CallAbandon]
	if len(abandon) == 0 {
		problems = append(problems, errors.New("the server stream the client abandoned never reached the server"))
	}
	for _, c := range abandon {
		if c.End != EndCancelled {
			problems = append(problems, notCancelled("the server stream the client cancelled after its first answer", c))
		}
	}
	return joined(problems)
}

// joined is the problems on one line, or nil.
func joined(problems []error) error {
	if len(problems) == 0 {
		return nil
	}
	s := problems[0].Error()
	for _, p := range problems[1:] {
		s += "; " + p.Error()
	}
	return errors.New(s)
}

func notCancelled(what string, c Line) error {
	switch c.End {
	case EndEOS:
		return fmt.Errorf("%s: the server saw a clean end of stream after %d message(s) and answered OK, a committed call; the client's cancel must reach it as RST_STREAM CANCEL (PROTOCOL-HTTP2.md Client Cancellation)", what, c.Messages)
	case EndOpen:
		return fmt.Errorf("%s: still open when the server stopped, %d message(s) in: the client's cancel never reached the server", what, c.Messages)
	}
	return fmt.Errorf("%s: the server saw it end %s (%s) after %d message(s), not cancelled", what, c.End, c.Error, c.Messages)
}

// judgeDeadline: each call arrived with a deadline, no later than the client's (up to rounding)
// and no earlier than the client's minus the request's measured one-way trip.
//
// A deadline travels as a relative grpc-timeout that each hop re-sends as the time it has left.
// The remaining time R at the server's handler is therefore the client's timeout T minus the time
// spent on the way; it can exceed T only by rounding, and it can lose at most the trip itself,
// measured as the handler's start minus the client's start (a wall clock the lab's containers
// share). Load lengthens the trip and the allowance alike, so the bound holds on a busy machine,
// where a fixed tolerance does not. A deadline that grew (a converter that resets or re-adds it)
// or shrank beyond the trip (units mistaken, a default substituted) fails.
func judgeDeadline(calls map[string][]Line) error {
	var problems []error
	for _, dc := range DeadlineCalls {
		if err := judgeDeadlineCall(dc.Name, dc.Timeout, calls[dc.Name]); err != nil {
			problems = append(problems, err)
		}
	}
	return joined(problems)
}

func judgeDeadlineCall(name string, timeout time.Duration, ls []Line) error {
	if len(ls) == 0 {
		return fmt.Errorf("%s: the call never reached the server", name)
	}
	d := ls[0].Deadline
	switch {
	case d == nil || !d.Present:
		return fmt.Errorf("%s: the server saw no deadline: the client's grpc-timeout (%v) did not arrive, and without one a server assumes an infinite deadline (PROTOCOL-HTTP2.md Timeout)", name, timeout)
	case d.ClientSentUnixNS == 0 || d.ClientDeadlineUnixNS == 0:
		return fmt.Errorf("%s: the client's %s and %s metadata did not reach the server", name, SentKey, DeadlineKey)
	}
	sent := time.Duration(d.ClientDeadlineUnixNS - d.ClientSentUnixNS)
	trip := max(time.Duration(d.StartUnixNS-d.ClientSentUnixNS), 0)
	left := time.Duration(d.RemainingNS)
	if left > sent+DeadlineSlack {
		return fmt.Errorf("%s: the server had %s left of the client's %s deadline: more than the client sent (the deadline grew on the way)", name, ms(left), ms(sent))
	}
	if low := sent - trip - DeadlineSlack; left < low {
		return fmt.Errorf("%s: the server had %s left of the client's %s deadline, sent %s before: less than the %s the trip explains (the deadline was cut short on the way)",
			name, ms(left), ms(sent), ms(trip), ms(low))
	}
	return nil
}

// ms formats d in milliseconds with microsecond precision.
func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d.Microseconds())/1000) }
