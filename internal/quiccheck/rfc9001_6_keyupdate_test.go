package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// keyupdate: the case tells the client to update; a server that updates on its own (and a client
// that merely follows) produced key phase 1 both ways and passed.
func TestKeyUpdateClientMustInitiate(t *testing.T) {
	kp := func(dir quictrace.Direction, phase int) quictrace.Packet {
		p := pkt(dir, quictrace.Type1RTT, quictrace.Frame{Type: quictrace.FrameStreamMin, StreamID: 0, Length: 100})
		p.KeyPhase = phase
		return p
	}
	hs := serverInitial("s1")
	wantPass(t, checkKeyUpdate(trace(hs, kp(quictrace.ClientToServer, 0), kp(quictrace.ClientToServer, 1), kp(quictrace.ServerToClient, 1))))
	wantFail(t, checkKeyUpdate(trace(hs, kp(quictrace.ClientToServer, 0), kp(quictrace.ServerToClient, 1), kp(quictrace.ClientToServer, 1))), "the server initiated")
}
