package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// zerortt: 0-RTT packets that carry no requests (PING/PADDING only, the requests going in small
// 1-RTT packets: wirelab's 10-letter names keep 40 requests far below 5000 B), or 0-RTT the
// server rejected, passed on "0-RTT payload > 0".
func TestZeroRTTRequestsAcceptedByServer(t *testing.T) {
	ee := func(exts ...uint16) quictrace.TLSMessage {
		return quictrace.TLSMessage{Type: quictrace.TLSEncryptedExtensions, Extensions: exts}
	}
	build := func(zeroRTT quictrace.Packet, second quictrace.TLSMessage) *quictrace.Trace {
		zeroRTT.Payload = 600
		return trace(serverInitial("s1"), serverHandshake("s1", ee()), serverInitial("s2"), zeroRTT, serverHandshake("s2", second))
	}
	requests := pkt(quictrace.ClientToServer, quictrace.Type0RTT, quictrace.Frame{Type: quictrace.FrameStreamMin + 3, StreamID: 0, Length: 17})
	pingOnly := pkt(quictrace.ClientToServer, quictrace.Type0RTT, quictrace.Frame{Type: quictrace.FramePing, StreamID: -1}, quictrace.Frame{Type: quictrace.FramePadding, StreamID: -1})
	wantPass(t, checkZeroRTT(build(requests, ee(quictrace.TLSExtEarlyData))))
	wantFail(t, checkZeroRTT(build(pingOnly, ee(quictrace.TLSExtEarlyData))), "carry no STREAM data")
	wantFail(t, checkZeroRTT(build(requests, ee())), "0-RTT was rejected")

	// Go's crypto/tls logs no early secret: 0-RTT stays opaque, and the requests are inferred
	// from 1-RTT — answered streams the client never opened there came in 0-RTT.
	opaque := pkt(quictrace.ClientToServer, quictrace.Type0RTT)
	opaque.Decrypted = false
	answer := pkt(quictrace.ServerToClient, quictrace.Type1RTT, quictrace.Frame{Type: quictrace.FrameStreamMin + 3, StreamID: 4, Length: 32})
	withAnswers := func(ps ...quictrace.Packet) *quictrace.Trace {
		tr := build(opaque, ee(quictrace.TLSExtEarlyData))
		for _, p := range ps {
			tr.Datagrams = append(tr.Datagrams, quictrace.Datagram{Frame: len(tr.Datagrams) + 1, Dir: p.Dir, UDPLen: 1200, Packets: []quictrace.Packet{p}})
		}
		return tr
	}
	wantPass(t, checkZeroRTT(withAnswers(answer)))
	in1RTT := pkt(quictrace.ClientToServer, quictrace.Type1RTT, quictrace.Frame{Type: quictrace.FrameStreamMin + 3, StreamID: 4, Length: 17})
	wantFail(t, checkZeroRTT(withAnswers(in1RTT, answer)), "every answered request was opened in 1-RTT")
	wantFail(t, checkZeroRTT(withAnswers()), "could not be decrypted")
}
