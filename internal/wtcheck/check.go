// Package wtcheck holds the WebTransport interop checks that decide a cell's verdict from its
// decrypted server-side trace (a quictrace.Trace) and the case's expectations. Each check is one
// file named after the requirement it verifies (rfc9297_2_1_datagrams.go) and listed in the
// catalog that conformance/webtransport/cases.yml is validated against. Checks are pure
// functions of the evidence; none asks what an implementation at hand happens to do.
package wtcheck

import (
	"sort"

	"github.com/wirelab/wirelab/internal/quiccheck"
	"github.com/wirelab/wirelab/internal/quictrace"
)

// Check is one trace check.
type Check struct {
	Name        string // what cases.yml calls it
	Requirement string // the sections it verifies
	Description string // one line: what passes
	Run         func(e *Evidence) Result
}

// Evidence is what a check reads: the trace and what the case asked of the endpoints.
type Evidence struct {
	Trace *quictrace.Trace
	// Endpoint is the session's path without the slash ("sunny-otter"); Stream the transport
	// the case moves files on ("unidirectional", "bidirectional", "datagram"; "" handshake);
	// Requester is who sends the GETs ("client" in *-receive, "server" in *-send).
	Endpoint, Stream, Requester string
	// Files are the files the case moves: name -> content.
	Files map[string][]byte
	// ClientProtocols, ServerProtocols: PROTOCOLS each side was given.
	ClientProtocols, ServerProtocols []string
	// ClientNegotiated, ServerNegotiated: what each wrote to /downloads/negotiated_protocol.txt
	// (nil: no such file).
	ClientNegotiated, ServerNegotiated *string
}

// Result is one check's verdict with a one-line reason: the QUIC checks' own.
type Result = quiccheck.Result

// Verdicts.
const (
	Pass = quiccheck.Pass
	Fail = quiccheck.Fail
)

var (
	pass = quiccheck.Passed
	fail = quiccheck.Failed
)

var catalog = map[string]Check{}

func register(c Check) Check {
	catalog[c.Name] = c
	return c
}

// Lookup finds a check by name.
func Lookup(name string) (Check, bool) {
	c, ok := catalog[name]
	return c, ok
}

// Names are the catalog's check names, sorted.
func Names() []string {
	var out []string
	for n := range catalog {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
