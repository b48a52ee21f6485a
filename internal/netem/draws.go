package netem

import "math/rand/v2"

// streams holds one generator per impairment of a Link.
type streams struct {
	loss, ge, corrupt, duplicate, reorder, jitter *rand.Rand
}

func newStreams(seed uint64, dir Direction) streams {
	d := dir.String()
	return streams{
		loss:      substream(seed, d, "loss"),
		ge:        substream(seed, d, "gilbert-elliott"),
		corrupt:   substream(seed, d, "corrupt"),
		duplicate: substream(seed, d, "duplicate"),
		reorder:   substream(seed, d, "reorder"),
		jitter:    substream(seed, d, "jitter"),
	}
}

// draws are the random outcomes for one packet, taken before any decision so
// that each stream advances the same way whatever the other impairments do.
type draws struct {
	loss, duplicate, reorder float64
	geMove, geLose           float64
	corrupt                  *ByteFlip  // nil: not selected or nothing to corrupt
	jitter                   [2]float64 // original, duplicate
}

func (s *streams) draw(p *Params, pkt PacketInfo) draws {
	d := draws{
		loss:      s.loss.Float64(),
		duplicate: s.duplicate.Float64(),
		reorder:   s.reorder.Float64(),
		geMove:    s.ge.Float64(),
		geLose:    s.ge.Float64(),
		jitter:    [2]float64{open01(s.jitter), open01(s.jitter)},
	}
	// Offsets are drawn only when selected; that depends on this stream's own
	// probability, its own settings and the packet, never on another
	// impairment's outcome.
	if s.corrupt.Float64() < p.Corrupt {
		if off, n, ok := pkt.payload(); ok {
			if p.CorruptWindow > 0 {
				n = min(n, p.CorruptWindow)
			}
			f := ByteFlip{Offset: off + s.corrupt.IntN(n), Mask: byte(1 + s.corrupt.IntN(255)), FixChecksum: p.CorruptDeliver}
			// Deliver mode leaves QUIC Version Negotiation packets intact, as
			// upstream does: a corrupted Initial's version field makes the
			// server send one, and the client must get it as sent. The
			// offsets are drawn all the same, so both modes select the same
			// other packets.
			if !(p.CorruptDeliver && pkt.VersionNegotiation) {
				d.corrupt = &f
			}
		}
	}
	return d
}
