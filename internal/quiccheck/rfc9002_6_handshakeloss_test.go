package quiccheck

import (
	"fmt"
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/tshark/tsharktest"
)

// handshakeloss counts 50 handshakes; the same check with n = 2 passes on the two-connection fixture.
func TestHandshakeCount(t *testing.T) {
	r := tsharktest.Need(t)
	if res := handshakeCount("two", 2)(fixture(t, r, "resumption")); !res.OK() {
		t.Error(res)
	}
	if res := handshakeCount("two", 2)(fixture(t, r, "handshake")); res.OK() {
		t.Error(res)
	}
}

// The catalog's loss and corruption checks want exactly 50 handshakes in version 1: 50 server
// Initials with distinct SCIDs pass; 49, or one of the 50 in v2, fail.
func TestFiftyHandshakes(t *testing.T) {
	initials := func(n int) []quictrace.Packet {
		var out []quictrace.Packet
		for i := range n {
			out = append(out, serverInitial(fmt.Sprintf("s%d", i)))
		}
		return out
	}
	for _, c := range []*Check{&handshakeLoss, &handshakeCorruption} {
		wantPass(t, c.Run(trace(initials(50)...)))
		wantFail(t, c.Run(trace(initials(49)...)), "49 handshakes")
		inV2 := initials(50)
		inV2[7].Version = quictrace.Version2
		wantFail(t, c.Run(trace(inV2...)), "want only 0x1")
	}
}
