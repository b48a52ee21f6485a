package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var handshake = Check{
	Name:        "handshake",
	Requirement: "RFC 9000 §7, RFC 9001 §4",
	Reads:       LongHeaders,
	Description: "server Initials only in version 1, no Retry, exactly 1 handshake",
	Run:         checkHandshake,
}

// checkHandshake: only version 0x1 in server Initials, no Retry, exactly 1 handshake.
func checkHandshake(t *quictrace.Trace) Result {
	const name = "handshake"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	if n := len(t.Filter(func(p *quictrace.Packet) bool { return p.Type == quictrace.TypeRetry })); n > 0 {
		return fail(name, "%d Retry packet(s) in the trace, want none", n)
	}
	return pass(name, "1 handshake, server Initials v1, no Retry")
}
