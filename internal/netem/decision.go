package netem

import (
	"net/netip"
	"time"
)

// DropCause says why a packet was dropped.
type DropCause uint8

const (
	NotDropped    DropCause = iota
	DropLoss                // random (Bernoulli) loss
	DropGELoss              // Gilbert-Elliott (bursty) loss
	DropQueue               // drop-tail queue full
	DropBlackhole           // inside a blackhole window
	DropDroplist            // index listed in the droplist
	DropNAT                 // to-client packet for a binding the NAT no longer has
)

var causeNames = [...]string{"", "loss", "ge-loss", "queue", "blackhole", "droplist", "nat"}

func (c DropCause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return "unknown"
}

// ByteFlip asks the I/O layer to XOR the byte at Offset (from the start of
// the IP packet) with Mask, which is never zero.
type ByteFlip struct {
	Offset int
	Mask   byte
	// FixChecksum (Params.CorruptDeliver) asks the I/O layer to recompute the
	// UDP/TCP checksum after the flip, so the receiver accepts the datagram
	// and hands the corrupted payload to the application. Without it the
	// checksum is left as it was and the receiving kernel drops the packet.
	FixChecksum bool
}

// Copy is an extra copy of the packet to send (duplication). It is identical
// to the original after the original's corruption, CE mark and rewrite.
type Copy struct {
	ReleaseAt time.Duration
}

// Rewrite gives the packet's new endpoints after NAT translation; the I/O
// layer rewrites the headers and fixes the checksums.
type Rewrite struct {
	Src, Dst netip.AddrPort
}

// Decision is the engine's verdict on one packet.
type Decision struct {
	// Seq is the 1-based arrival index of the packet in its direction (the
	// index droplists refer to).
	Seq int
	// Drop is set with Cause when the packet must be discarded; nothing
	// else in the Decision is meaningful then.
	Drop  bool
	Cause DropCause
	// ReleaseAt is when to send the packet on, in run time.
	ReleaseAt time.Duration
	// Corrupt lists the bytes to flip; empty when the packet is intact.
	Corrupt []ByteFlip
	// MarkCE asks to set the ECN field to CE (only ever for ECT packets).
	MarkCE bool
	// Reordered is set when the packet was sent ahead of earlier ones.
	Reordered bool
	// Duplicate, when non-nil, asks for a second copy.
	Duplicate *Copy
	// Rewrite, when non-nil, gives new endpoints (NAT rebinding).
	Rewrite *Rewrite
}
