package quictrace

import "testing"

// transfer's description ends "connection close completes with a zero error code": a
// CONNECTION_CLOSE carrying an error fails it, NO_ERROR and H3_NO_ERROR pass.
func TestTransferClosesWithoutError(t *testing.T) {
	closing := func(dir Direction, typ, code uint64) *Trace {
		hs := serverInitial("aaaa", TLSMessage{Type: TLSServerHello})
		cl := pkt(dir, Type1RTT, Frame{Type: typ, StreamID: -1, ErrorCode: code})
		return trace(hs, cl)
	}
	wantPass(t, CheckTransfer(trace(serverInitial("aaaa", TLSMessage{Type: TLSServerHello}))))
	wantPass(t, CheckTransfer(closing(ClientToServer, FrameConnectionClose, 0)))
	wantPass(t, CheckTransfer(closing(ClientToServer, FrameApplicationClose, 0)))
	wantPass(t, CheckTransfer(closing(ServerToClient, FrameApplicationClose, H3NoError)))
	wantFail(t, CheckTransfer(closing(ServerToClient, FrameConnectionClose, 0x1)), "the server closed the connection with error 0x1")
	wantFail(t, CheckTransfer(closing(ClientToServer, FrameApplicationClose, 0x102)), "the client closed the connection with error 0x102")
}
