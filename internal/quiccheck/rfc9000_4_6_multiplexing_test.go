package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// multiplexing: a client that opens streams beyond the server's limit (and a server that does
// not enforce it) passed on "initial_max_streams_bidi <= 1000" alone.
func TestMultiplexingClientWithinLimit(t *testing.T) {
	two := uint64(2)
	ee := serverHandshake("s1", quictrace.TLSMessage{Type: quictrace.TLSEncryptedExtensions, InitialMaxStreamsBidi: &two})
	stream := func(id int64) quictrace.Packet {
		return pkt(quictrace.ClientToServer, quictrace.Type1RTT, quictrace.Frame{Type: quictrace.FrameStreamMin, StreamID: id, Length: 10})
	}
	raise := pkt(quictrace.ServerToClient, quictrace.Type1RTT, quictrace.Frame{Type: quictrace.FrameMaxStreamsBidi, StreamID: -1, MaxStreams: 3})
	wantPass(t, checkMultiplexing(trace(serverInitial("s1"), ee, stream(0), stream(4), raise, stream(8))))
	wantFail(t, checkMultiplexing(trace(serverInitial("s1"), ee, stream(0), stream(4), stream(8), raise)), "while the server's limit was 2")
}
