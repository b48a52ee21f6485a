package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var longRTT = Check{
	Name:        "longrtt",
	Requirement: "RFC 9002 §6.2",
	Reads:       LongHeaders,
	Description: "the handshake check, and the ClientHello sent in at least 2 client Initials (a retransmission)",
	Run:         checkLongRTT,
}

// checkLongRTT (longrtt): the handshake checks, and the client sent its ClientHello at least
// twice (a CRYPTO frame at offset 0 in >= 2 client Initials: it retransmitted).
func checkLongRTT(t *quictrace.Trace) Result {
	const name = "longrtt"
	if r := checkHandshake(t); !r.OK() {
		return Result{Check: name, Verdict: Fail, Reason: r.Reason}
	}
	n := 0
	for _, p := range t.Filter(func(p *quictrace.Packet) bool {
		return p.Dir == quictrace.ClientToServer && p.Type == quictrace.TypeInitial
	}) {
		for _, f := range p.Frames {
			if f.Type == quictrace.FrameCrypto && f.Offset == 0 {
				n++
				break
			}
		}
	}
	if n < 2 {
		return fail(name, "%d client Initial(s) carry the ClientHello, want >= 2 (a retransmission)", n)
	}
	return pass(name, "1 handshake, ClientHello sent in %d client Initials", n)
}
