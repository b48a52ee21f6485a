package wtcheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// upstream: every session of a case shares one QUIC connection, counted as the upstream runner
// counts handshakes (distinct SCIDs of the server's Initial packets).
func TestOneConnection(t *testing.T) {
	for _, c := range testCases {
		wantPass(t, good(c.stream, c.requester).run(t, oneConnection))
	}

	// A retransmitted server Initial of the same handshake is not a second handshake.
	f := good("", "client")
	f.extra = append(f.extra, func(w *wire) { w.initial(quictrace.ServerToClient, "5e:55:10:01") })
	wantPass(t, f.run(t, oneConnection))

	// The client opened a second connection (and its session there).
	f = good("", "client")
	f.extra = append(f.extra, func(w *wire) {
		w.conn = 1
		w.handshake("5e:55:10:02")
		id := w.open(quictrace.ClientToServer, false)
		w.headers(quictrace.ClientToServer, id, f.request)
		w.headers(quictrace.ServerToClient, id, f.response)
	})
	wantFail(t, f.run(t, oneConnection), "2 QUIC handshakes, want exactly 1")

	// A trace without the handshake (say, a capture started late).
	wantFail(t, oneConnection.Run(&Evidence{Trace: &quictrace.Trace{}}), "0 QUIC handshakes")
}
