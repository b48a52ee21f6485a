package quiccheck

import (
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// A path that only carries the client's CONNECTION_CLOSE (it rebound just before closing) needs
// no validation; a path that carried data does.
func TestRebindIgnoresClosingOnlyPath(t *testing.T) {
	dg := func(src string, dir quictrace.Direction, frames ...quictrace.Frame) quictrace.Datagram {
		d := quictrace.Datagram{Src: src, Dst: "198.18.1.100:443", Dir: dir, Packets: []quictrace.Packet{{Type: quictrace.Type1RTT, Dir: dir, Frames: frames}}}
		if dir == quictrace.ServerToClient {
			d.Src, d.Dst = d.Dst, src
		}
		return d
	}
	stream := quictrace.Frame{Type: 0x08}
	chal := quictrace.Frame{Type: quictrace.FramePathChallenge, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	resp := quictrace.Frame{Type: quictrace.FramePathResponse, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	base := []quictrace.Datagram{
		dg("198.18.0.100:4000", quictrace.ClientToServer, stream),
		dg("198.18.0.100:5000", quictrace.ClientToServer, stream), // rebound: validated below
		dg("198.18.0.100:5000", quictrace.ServerToClient, chal),
		dg("198.18.0.100:5000", quictrace.ClientToServer, resp),
	}
	closing := append(append([]quictrace.Datagram{}, base...), dg("198.18.0.100:6000", quictrace.ClientToServer, quictrace.Frame{Type: 0x1d}))
	if r := checkRebindPort(&quictrace.Trace{Datagrams: closing}); !r.OK() {
		t.Fatalf("closing-only path: %s", r)
	}
	data := append(append([]quictrace.Datagram{}, base...), dg("198.18.0.100:6000", quictrace.ClientToServer, stream))
	if r := checkRebindPort(&quictrace.Trace{Datagrams: data}); r.OK() || !strings.Contains(r.Reason, "6000") {
		t.Fatalf("unvalidated data path must fail: %s", r)
	}
}

// Upstream's rebind rule: the server's first datagram to a new client port must carry its
// PATH_CHALLENGE; a server that sends data there first and validates later fails.
func TestRebindServerChallengesFirst(t *testing.T) {
	srv := "198.18.1.100:443"
	c := func(src string, frames ...quictrace.Frame) quictrace.Datagram {
		return quictrace.Datagram{Src: src, Dst: srv, Dir: quictrace.ClientToServer, Packets: []quictrace.Packet{{Type: quictrace.Type1RTT, Dir: quictrace.ClientToServer, Frames: frames}}}
	}
	s := func(dst string, frames ...quictrace.Frame) quictrace.Datagram {
		return quictrace.Datagram{Src: srv, Dst: dst, Dir: quictrace.ServerToClient, Packets: []quictrace.Packet{{Type: quictrace.Type1RTT, Dir: quictrace.ServerToClient, Frames: frames}}}
	}
	stream := quictrace.Frame{Type: 0x08}
	chal := quictrace.Frame{Type: quictrace.FramePathChallenge, Data: []byte{9, 9, 9, 9, 9, 9, 9, 9}}
	resp := quictrace.Frame{Type: quictrace.FramePathResponse, Data: []byte{9, 9, 9, 9, 9, 9, 9, 9}}
	good := []quictrace.Datagram{c("198.18.0.100:4000", stream), c("198.18.0.100:5000", stream),
		s("198.18.0.100:5000", chal, stream), c("198.18.0.100:5000", resp)}
	if r := checkRebindPort(&quictrace.Trace{Datagrams: good}); !r.OK() {
		t.Fatalf("challenge first: %s", r)
	}
	late := []quictrace.Datagram{c("198.18.0.100:4000", stream), c("198.18.0.100:5000", stream),
		s("198.18.0.100:5000", stream), s("198.18.0.100:5000", chal), c("198.18.0.100:5000", resp)}
	if r := checkRebindPort(&quictrace.Trace{Datagrams: late}); r.OK() || !strings.Contains(r.Reason, "carries no PATH_CHALLENGE") {
		t.Fatalf("data before the challenge must fail: %s", r)
	}
}
