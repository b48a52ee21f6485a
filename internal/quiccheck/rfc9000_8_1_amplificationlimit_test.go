package quiccheck

import (
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// withCrypto gives a server Handshake datagram CRYPTO data up to end (the certificate chain).
func withCrypto(d quictrace.Datagram, end uint64) quictrace.Datagram {
	d.Packets[0].Frames = []quictrace.Frame{{Type: quictrace.FrameCrypto, StreamID: -1, Offset: end - 1000, Length: 1000}}
	return d
}

func TestAmplificationLimitSynthetic(t *testing.T) {
	ok := &quictrace.Trace{Datagrams: []quictrace.Datagram{dg(quictrace.ClientToServer, 1200, quictrace.TypeInitial), dg(quictrace.ServerToClient, 1200, quictrace.TypeInitial), dg(quictrace.ServerToClient, 1200, quictrace.TypeHandshake), withCrypto(dg(quictrace.ServerToClient, 1200, quictrace.TypeHandshake), 4500), dg(quictrace.ClientToServer, 100, quictrace.TypeHandshake), dg(quictrace.ServerToClient, 1200, quictrace.Type1RTT)}}
	if r := checkAmplificationLimit(ok); !r.OK() {
		t.Error(r)
	}
	// A server that ignores the long chain never approaches the limit: nothing was tested.
	small := &quictrace.Trace{Datagrams: []quictrace.Datagram{dg(quictrace.ClientToServer, 1200, quictrace.TypeInitial), withCrypto(dg(quictrace.ServerToClient, 1200, quictrace.TypeHandshake), 1500), dg(quictrace.ClientToServer, 100, quictrace.TypeHandshake)}}
	if r := checkAmplificationLimit(small); r.OK() || !strings.Contains(r.Reason, "never reached") {
		t.Errorf("small chain must fail: %s", r)
	}
	bad := &quictrace.Trace{Datagrams: []quictrace.Datagram{dg(quictrace.ClientToServer, 1200, quictrace.TypeInitial), dg(quictrace.ServerToClient, 1200, quictrace.TypeInitial), dg(quictrace.ServerToClient, 1200, quictrace.TypeHandshake), dg(quictrace.ServerToClient, 1200, quictrace.TypeHandshake), dg(quictrace.ServerToClient, 1200, quictrace.TypeHandshake), dg(quictrace.ClientToServer, 100, quictrace.TypeHandshake)}}
	if r := checkAmplificationLimit(bad); r.OK() {
		t.Error(r)
	}
}
