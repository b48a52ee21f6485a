package quictrace

import (
	"strings"
	"testing"
)

// A path that only carries the client's CONNECTION_CLOSE (it rebound just before closing) needs
// no validation; a path that carried data does.
func TestRebindIgnoresClosingOnlyPath(t *testing.T) {
	dg := func(src string, dir Direction, frames ...Frame) Datagram {
		d := Datagram{Src: src, Dst: "198.18.1.100:443", Dir: dir, Packets: []Packet{{Type: Type1RTT, Dir: dir, Frames: frames}}}
		if dir == ServerToClient {
			d.Src, d.Dst = d.Dst, src
		}
		return d
	}
	stream := Frame{Type: 0x08}
	chal := Frame{Type: FramePathChallenge, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	resp := Frame{Type: FramePathResponse, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	base := []Datagram{
		dg("198.18.0.100:4000", ClientToServer, stream),
		dg("198.18.0.100:5000", ClientToServer, stream), // rebound: validated below
		dg("198.18.0.100:5000", ServerToClient, chal),
		dg("198.18.0.100:5000", ClientToServer, resp),
	}
	closing := append(append([]Datagram{}, base...), dg("198.18.0.100:6000", ClientToServer, Frame{Type: 0x1d}))
	if r := CheckRebindPort(&Trace{Datagrams: closing}); !r.OK() {
		t.Fatalf("closing-only path: %s", r)
	}
	data := append(append([]Datagram{}, base...), dg("198.18.0.100:6000", ClientToServer, stream))
	if r := CheckRebindPort(&Trace{Datagrams: data}); r.OK() || !strings.Contains(r.Reason, "6000") {
		t.Fatalf("unvalidated data path must fail: %s", r)
	}
}
