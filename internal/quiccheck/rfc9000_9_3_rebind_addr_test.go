package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

func TestRebindAddrSynthetic(t *testing.T) {
	mk := func(dir quictrace.Direction, src, dst string, f quictrace.Frame) quictrace.Datagram {
		d := dg(dir, 100, quictrace.Type1RTT)
		d.Src, d.Dst = src, dst
		d.Packets[0].Frames = []quictrace.Frame{f}
		return d
	}
	srv := "10.0.0.1:443"
	ch := quictrace.Frame{Type: quictrace.FramePathChallenge, StreamID: -1, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	rs := quictrace.Frame{Type: quictrace.FramePathResponse, StreamID: -1, Data: ch.Data}
	good := &quictrace.Trace{Datagrams: []quictrace.Datagram{
		mk(quictrace.ClientToServer, "10.0.1.5:5000", srv, quictrace.Frame{Type: quictrace.FramePing, StreamID: -1}),
		mk(quictrace.ClientToServer, "10.0.1.6:5000", srv, quictrace.Frame{Type: quictrace.FramePing, StreamID: -1}),
		mk(quictrace.ServerToClient, srv, "10.0.1.6:5000", ch),
		mk(quictrace.ClientToServer, "10.0.1.6:5000", srv, rs),
	}}
	if r := checkRebindAddr(good); !r.OK() {
		t.Error(r)
	}
	bad := &quictrace.Trace{Datagrams: good.Datagrams[:3]} // challenge never answered
	if r := checkRebindAddr(bad); r.OK() {
		t.Error(r)
	}
}
