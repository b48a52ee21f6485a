// Package fuzzseeds turns the HTTP/3 traffic of a QUIC matrix run (the decrypted traces of its
// http3 cells) into seeds for the fuzz/nghttp3-qpack-decoder target (issue #16): per connection
// and direction, the QPACK encoder stream and every HEADERS field section, in the order the bytes
// appeared in the trace, as fuzz/common/records.h records; and for fuzz/nghttp3-h3-conn (h3conn.go):
// per connection, a client fed the server's real streams and a server fed the client's.
package fuzzseeds

// Reassembler rebuilds one QUIC stream from STREAM frames in arrival order: Add returns the bytes
// that became contiguous from offset 0 with that frame. Duplicates and overlaps (retransmissions)
// add nothing twice; a frame beyond the contiguous end waits until the gap before it is filled, so
// a stream with a gap that is never filled stops at the gap.
type Reassembler struct {
	next    uint64    // bytes [0, next) have been delivered
	pending []segment // frames beyond next, in arrival order
}

type segment struct {
	off  uint64
	data []byte
}

// Add takes one STREAM frame's offset and data and returns what it made contiguous (nil if nothing).
func (r *Reassembler) Add(off uint64, data []byte) []byte {
	end := off + uint64(len(data))
	if end <= r.next || len(data) == 0 {
		return nil // duplicate, or nothing new
	}
	if off > r.next {
		r.pending = append(r.pending, segment{off, append([]byte(nil), data...)})
		return nil
	}
	out := append([]byte(nil), data[r.next-off:]...)
	r.next = end
	// Drain what waited for these bytes; one pass may enable another.
	for progressed := true; progressed; {
		progressed = false
		keep := r.pending[:0]
		for _, s := range r.pending {
			e := s.off + uint64(len(s.data))
			switch {
			case e <= r.next: // covered by now
			case s.off <= r.next:
				out = append(out, s.data[r.next-s.off:]...)
				r.next = e
				progressed = true
			default:
				keep = append(keep, s)
			}
		}
		r.pending = keep
	}
	return out
}

// Delivered is how many bytes from offset 0 are contiguous.
func (r *Reassembler) Delivered() uint64 { return r.next }

// Gap reports whether bytes beyond a hole are waiting (the stream stopped at a gap).
func (r *Reassembler) Gap() bool { return len(r.pending) > 0 }
