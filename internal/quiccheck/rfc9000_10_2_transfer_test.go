package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// transfer's description ends "connection close completes with a zero error code": a
// CONNECTION_CLOSE carrying an error fails it, NO_ERROR and H3_NO_ERROR pass.
func TestTransferClosesWithoutError(t *testing.T) {
	closing := func(dir quictrace.Direction, typ, code uint64) *quictrace.Trace {
		hs := serverInitial("aaaa", quictrace.TLSMessage{Type: quictrace.TLSServerHello})
		cl := pkt(dir, quictrace.Type1RTT, quictrace.Frame{Type: typ, StreamID: -1, ErrorCode: code})
		return trace(hs, cl)
	}
	wantPass(t, checkTransfer(trace(serverInitial("aaaa", quictrace.TLSMessage{Type: quictrace.TLSServerHello}))))
	wantPass(t, checkTransfer(closing(quictrace.ClientToServer, quictrace.FrameConnectionClose, 0)))
	wantPass(t, checkTransfer(closing(quictrace.ClientToServer, quictrace.FrameApplicationClose, 0)))
	wantPass(t, checkTransfer(closing(quictrace.ServerToClient, quictrace.FrameApplicationClose, quictrace.H3NoError)))
	wantFail(t, checkTransfer(closing(quictrace.ServerToClient, quictrace.FrameConnectionClose, 0x1)), "the server closed the connection with error 0x1")
	wantFail(t, checkTransfer(closing(quictrace.ClientToServer, quictrace.FrameApplicationClose, 0x102)), "the client closed the connection with error 0x102")
}
