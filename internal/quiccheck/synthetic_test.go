package quiccheck

import (
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// Synthetic traces for misbehaviours no stack here produces on demand: each test builds the good
// trace and the one misbehaviour, and asserts the check fails for that reason.

// pkt is a decrypted packet of one direction.
func pkt(dir quictrace.Direction, typ quictrace.PacketType, frames ...quictrace.Frame) quictrace.Packet {
	return quictrace.Packet{Dir: dir, Type: typ, LongHdr: typ != quictrace.Type1RTT, Version: quictrace.Version1, Decrypted: true, PN: -1, Frames: frames}
}

// serverInitial is a server Initial of handshake scid carrying TLS messages.
func serverInitial(scid string, tls ...quictrace.TLSMessage) quictrace.Packet {
	p := pkt(quictrace.ServerToClient, quictrace.TypeInitial)
	p.SCID, p.TLS = scid, tls
	return p
}

// serverHandshake is a server Handshake packet of handshake scid carrying TLS messages.
func serverHandshake(scid string, tls ...quictrace.TLSMessage) quictrace.Packet {
	p := pkt(quictrace.ServerToClient, quictrace.TypeHandshake)
	p.SCID, p.TLS = scid, tls
	return p
}

// trace puts each packet in its own datagram, numbering frames from 1.
func trace(ps ...quictrace.Packet) *quictrace.Trace {
	t := &quictrace.Trace{}
	for i, p := range ps {
		p.Frame = i + 1
		t.Datagrams = append(t.Datagrams, quictrace.Datagram{Frame: i + 1, Dir: p.Dir, Conn: p.Conn, UDPLen: 1200, Packets: []quictrace.Packet{p}})
	}
	return t
}

// dg is an ECT(0)-marked datagram of n bytes holding one packet of type pt.
func dg(dir quictrace.Direction, n int, pt quictrace.PacketType) quictrace.Datagram {
	return quictrace.Datagram{Dir: dir, UDPLen: n, ECN: quictrace.ECNECT0, Packets: []quictrace.Packet{{Dir: dir, Type: pt, LongHdr: pt != quictrace.Type1RTT, Version: quictrace.Version1, SCID: "aa"}}}
}

func wantFail(t *testing.T, r Result, because string) {
	t.Helper()
	if r.OK() || !strings.Contains(r.Reason, because) {
		t.Errorf("want a failure mentioning %q, got %s", because, r)
	}
}

func wantPass(t *testing.T, r Result) {
	t.Helper()
	if !r.OK() {
		t.Error(r)
	}
}
