// Package quiccheck holds the QUIC/HTTP-3 interop checks that decide a cell's verdict from its
// decrypted server-side trace (a quictrace.Trace). Each check is one file named after the
// requirement it verifies (rfc9000_8_1_amplificationlimit.go): its metadata (Check) and its
// function, listed in the catalog (catalog.go) that conformance/quic/testcases.yml is validated
// against. Checks are pure functions of the trace.
package quiccheck

import (
	"fmt"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// Check is one trace check and what the runner needs to know about it.
type Check struct {
	Name        string // what testcases.yml calls it (upstream's test case name)
	Requirement string // the RFC sections it verifies, "RFC 9000 §8.1"
	Reads       Reads  // which datagrams tshark must print for it
	Description string // one line: what passes
	Run         func(t *quictrace.Trace) Result
}

// Reads says which part of the trace a check reads, so a cell whose checks need only the
// handshake can have tshark print just those datagrams (quictrace.LongHeaderFilter).
type Reads int

const (
	// WholeTrace: 1-RTT packets too (payloads, key phases, ECN marks, paths, HTTP/3 streams).
	// The zero value: a check that says nothing gets every datagram.
	WholeTrace Reads = iota
	// LongHeaders: only long-header packets (versions, Retry, handshake counts, TLS messages,
	// transport parameters) and CONNECTION_CLOSE frames.
	LongHeaders
)

// Verdict of a check.
type Verdict string

const (
	Pass Verdict = "pass"
	Fail Verdict = "fail"
)

// Result is one check's verdict with a one-line reason.
type Result struct {
	Check   string
	Verdict Verdict
	Reason  string
}

// OK reports whether the check passed.
func (r Result) OK() bool { return r.Verdict == Pass }

func (r Result) String() string { return r.Check + ": " + string(r.Verdict) + ": " + r.Reason }

func pass(name, format string, a ...any) Result { return Passed(name, format, a...) }

func fail(name, format string, a ...any) Result { return Failed(name, format, a...) }

// Passed is a passing Result with its reason (the trace checks of other suites make theirs so).
func Passed(name, format string, a ...any) Result {
	return Result{Check: name, Verdict: Pass, Reason: fmt.Sprintf(format, a...)}
}

// Failed is a failing Result with its reason.
func Failed(name, format string, a ...any) Result {
	return Result{Check: name, Verdict: Fail, Reason: fmt.Sprintf(format, a...)}
}
