package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var multiplexing = Check{
	Name:        "multiplexing",
	Requirement: "RFC 9000 §4.6",
	Reads:       WholeTrace,
	Description: "the server's initial_max_streams_bidi is at most 1000, and the client never opens a stream beyond the limit granted so far",
	Run:         checkMultiplexing,
}

// maxMultiplexingStreamsBidi is the highest initial_max_streams_bidi the multiplexing test allows.
const maxMultiplexingStreamsBidi = 1000

// checkMultiplexing: the server's initial_max_streams_bidi is at most 1000 (so the client must
// wait for MAX_STREAMS to open its 1999 streams), and the client never opens a bidirectional
// stream beyond the limit the server has granted so far (RFC 9000 §4.6): the server raised it
// with MAX_STREAMS rather than the client ignoring it.
func checkMultiplexing(t *quictrace.Trace) Result {
	const name = "multiplexing"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	var got *uint64
	for _, p := range t.Filter(func(p *quictrace.Packet) bool { return p.Dir == quictrace.ServerToClient }) {
		for _, m := range p.TLS {
			if m.Type == quictrace.TLSEncryptedExtensions && m.InitialMaxStreamsBidi != nil {
				got = m.InitialMaxStreamsBidi
			}
		}
	}
	if got == nil {
		return fail(name, "no initial_max_streams_bidi in the server's transport parameters (not decrypted?)")
	}
	if *got > maxMultiplexingStreamsBidi {
		return fail(name, "server initial_max_streams_bidi = %d, want <= %d", *got, maxMultiplexingStreamsBidi)
	}
	opened, limit, r, ok := clientWithinStreamLimit(name, t)
	if !ok {
		return r
	}
	return pass(name, "server initial_max_streams_bidi = %d (<= %d); the client opened %d bidi streams, within the limit (highest granted %d)", *got, maxMultiplexingStreamsBidi, opened, limit)
}

// clientWithinStreamLimit replays the trace per connection: the limit starts at the server's
// initial_max_streams_bidi and rises with its MAX_STREAMS (bidi) frames; every client-initiated
// bidirectional stream must lie within the limit in force when the server saw it. It returns
// the most streams opened and the highest limit on any connection.
func clientWithinStreamLimit(name string, t *quictrace.Trace) (opened, limit uint64, r Result, ok bool) {
	lim := map[int]uint64{}
	known := map[int]bool{}
	for _, d := range t.Datagrams {
		for _, p := range d.Packets {
			if p.Dir == quictrace.ServerToClient {
				for _, m := range p.TLS {
					if m.Type == quictrace.TLSEncryptedExtensions && m.InitialMaxStreamsBidi != nil && !known[p.Conn] {
						lim[p.Conn], known[p.Conn] = *m.InitialMaxStreamsBidi, true
					}
				}
			}
			for _, f := range p.Frames {
				switch {
				case p.Dir == quictrace.ServerToClient && f.Type == quictrace.FrameMaxStreamsBidi && f.MaxStreams > lim[p.Conn]:
					lim[p.Conn] = f.MaxStreams
				case p.Dir == quictrace.ClientToServer && f.IsStream() && f.StreamID&3 == 0:
					n := uint64(f.StreamID)/4 + 1 // streams up to this one are open (RFC 9000 §2.1)
					if known[p.Conn] && n > lim[p.Conn] {
						return 0, 0, fail(name, "the client opened bidi stream %d (stream #%d) in frame %d while the server's limit was %d", f.StreamID, n, p.Frame, lim[p.Conn]), false
					}
					opened = max(opened, n)
				}
			}
			limit = max(limit, lim[p.Conn])
		}
	}
	return opened, limit, Result{}, true
}
