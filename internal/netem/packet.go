package netem

import "net/netip"

// ECN is the two-bit ECN codepoint of the IP header (RFC 3168).
type ECN uint8

const (
	NotECT ECN = 0
	ECT1   ECN = 1
	ECT0   ECN = 2
	CE     ECN = 3
)

// IsECT reports whether the sender declared the packet ECN-capable, the only
// case in which a queue may mark CE instead of dropping.
func (e ECN) IsECT() bool { return e == ECT0 || e == ECT1 }

// PacketInfo is what the engine needs to know about a packet; it never sees
// the bytes.
type PacketInfo struct {
	// Size is the IP packet length in bytes, as it occupies the link.
	Size int
	// ECN is the packet's ECN codepoint; the engine never changes it except
	// by asking for CE (Decision.MarkCE).
	ECN ECN
	// PayloadOffset and PayloadLen locate the transport payload (after the
	// UDP/TCP header) inside the IP packet. Corruption stays inside it (so
	// the transport checksum detects it unless Params.CorruptDeliver has it
	// fixed); PayloadLen 0 disables corruption.
	PayloadOffset, PayloadLen int
	// VersionNegotiation reports that the payload is a QUIC Version
	// Negotiation packet (UDP; first byte with the long-header bit 0x80,
	// version bytes 1..4 all zero). Deliver-mode corruption
	// (Params.CorruptDeliver) never touches such a packet; the default mode
	// ignores the flag.
	VersionNegotiation bool
	// Src and Dst are the transport endpoints. They matter only when NAT
	// rebinding is on; leave them zero for packets without ports.
	Src, Dst netip.AddrPort
}

// payload returns the payload range, or ok=false when it does not lie inside
// the packet (a caller bug we refuse to turn into an out-of-range write).
func (p PacketInfo) payload() (off, n int, ok bool) {
	if p.PayloadLen <= 0 || p.PayloadOffset < 0 || p.PayloadOffset+p.PayloadLen > p.Size {
		return 0, 0, false
	}
	return p.PayloadOffset, p.PayloadLen, true
}
