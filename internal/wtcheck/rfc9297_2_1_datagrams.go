package wtcheck

import (
	"github.com/wirelab/wirelab/internal/quicvarint"
)

var datagrams = register(Check{
	Name:        "datagrams",
	Requirement: "RFC 9297 §2.1, draft-ietf-webtrans-http3 §4.4",
	Description: "every QUIC DATAGRAM starts with a quarter stream id whose stream is an accepted session",
	Run:         checkDatagrams,
})

// checkDatagrams: an HTTP datagram's payload starts with its request stream's id divided by
// four (RFC 9297 §2.1); WebTransport datagrams name their session that way (§4.4). A datagram
// whose quarter stream id names no accepted session cannot be delivered to one.
func checkDatagrams(e *Evidence) Result {
	name := "datagrams"
	ok := acceptedSessions(e.Trace)
	for _, d := range e.Trace.H3Datagrams {
		q, n := quicvarint.Read(d.Data)
		if n == 0 {
			return fail(name, "%s DATAGRAM in frame %d has no quarter stream id (%d bytes)", d.Dir, d.Frame, len(d.Data))
		}
		if _, found := ok[[2]uint64{uint64(d.Conn), q * 4}]; !found {
			return fail(name, "%s DATAGRAM in frame %d: quarter stream id %d names stream %d, no accepted session", d.Dir, d.Frame, q, q*4)
		}
	}
	return pass(name, "%d DATAGRAMs, each naming an accepted session", len(e.Trace.H3Datagrams))
}
