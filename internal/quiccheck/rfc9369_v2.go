package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var v2 = Check{
	Name:        "v2",
	Requirement: "RFC 9369 (QUIC v2), RFC 9368 (compatible version negotiation)",
	Reads:       LongHeaders,
	Description: "the client's first Initial is v1; every server Initial and every Handshake packet is v2",
	Run:         checkV2,
}

// checkV2: the client's first Initial is v1 (its later Initials v1 or v2), all server Initials and
// all Handshake packets are v2 (compatible version negotiation, RFC 9368/9369).
func checkV2(t *quictrace.Trace) Result {
	const name = "v2"
	ci := t.Filter(func(p *quictrace.Packet) bool {
		return p.Dir == quictrace.ClientToServer && p.Type == quictrace.TypeInitial
	})
	if len(ci) == 0 {
		return fail(name, "no client Initial in the trace")
	}
	if ci[0].Version != quictrace.Version1 {
		return fail(name, "the client's first Initial is 0x%x, want 0x1", ci[0].Version)
	}
	for _, p := range ci {
		if p.Version != quictrace.Version1 && p.Version != quictrace.Version2 {
			return fail(name, "client Initial (frame %d) with version 0x%x", p.Frame, p.Version)
		}
	}
	si := t.Filter(func(p *quictrace.Packet) bool {
		return p.Dir == quictrace.ServerToClient && p.Type == quictrace.TypeInitial
	})
	if len(si) == 0 {
		return fail(name, "no server Initial in the trace")
	}
	for _, p := range si {
		if p.Version != quictrace.Version2 {
			return fail(name, "server Initial (frame %d) is 0x%x, want 0x6b3343cf", p.Frame, p.Version)
		}
	}
	hs := t.Filter(func(p *quictrace.Packet) bool { return p.Type == quictrace.TypeHandshake })
	if len(hs) == 0 {
		return fail(name, "no Handshake packets in the trace")
	}
	for _, p := range hs {
		if p.Version != quictrace.Version2 {
			return fail(name, "%s Handshake packet (frame %d) is 0x%x, want 0x6b3343cf", p.Dir, p.Frame, p.Version)
		}
	}
	return pass(name, "client started with v1; %d server Initials and %d Handshake packets are v2", len(si), len(hs))
}
