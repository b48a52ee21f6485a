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

// Upstream's rebind rule: the server's first datagram to a new client port must carry its
// PATH_CHALLENGE; a server that sends data there first and validates later fails.
func TestRebindServerChallengesFirst(t *testing.T) {
	srv := "198.18.1.100:443"
	c := func(src string, frames ...Frame) Datagram {
		return Datagram{Src: src, Dst: srv, Dir: ClientToServer, Packets: []Packet{{Type: Type1RTT, Dir: ClientToServer, Frames: frames}}}
	}
	s := func(dst string, frames ...Frame) Datagram {
		return Datagram{Src: srv, Dst: dst, Dir: ServerToClient, Packets: []Packet{{Type: Type1RTT, Dir: ServerToClient, Frames: frames}}}
	}
	stream := Frame{Type: 0x08}
	chal := Frame{Type: FramePathChallenge, Data: []byte{9, 9, 9, 9, 9, 9, 9, 9}}
	resp := Frame{Type: FramePathResponse, Data: []byte{9, 9, 9, 9, 9, 9, 9, 9}}
	good := []Datagram{c("198.18.0.100:4000", stream), c("198.18.0.100:5000", stream),
		s("198.18.0.100:5000", chal, stream), c("198.18.0.100:5000", resp)}
	if r := CheckRebindPort(&Trace{Datagrams: good}); !r.OK() {
		t.Fatalf("challenge first: %s", r)
	}
	late := []Datagram{c("198.18.0.100:4000", stream), c("198.18.0.100:5000", stream),
		s("198.18.0.100:5000", stream), s("198.18.0.100:5000", chal), c("198.18.0.100:5000", resp)}
	if r := CheckRebindPort(&Trace{Datagrams: late}); r.OK() || !strings.Contains(r.Reason, "carries no PATH_CHALLENGE") {
		t.Fatalf("data before the challenge must fail: %s", r)
	}
}
