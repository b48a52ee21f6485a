package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// connectionmigration: the client must move to the server's preferred address and validate
// that path itself; a server-only validation, or a migration elsewhere, does not count.
func TestConnectionMigrationPreferredAddress(t *testing.T) {
	srv, pref, cli := "127.0.0.1:443", "127.0.0.1:4443", "127.0.0.1:5000"
	on := func(p quictrace.Packet, src, dst, dcid string) quictrace.Datagram {
		p.DCID = dcid
		return quictrace.Datagram{Dir: p.Dir, Src: src, Dst: dst, Packets: []quictrace.Packet{p}}
	}
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	ee := serverHandshake("s1", quictrace.TLSMessage{Type: quictrace.TLSEncryptedExtensions, PreferredAddresses: []string{pref}})
	base := []quictrace.Datagram{
		on(ee, srv, cli, "c1"),
		on(pkt(quictrace.ClientToServer, quictrace.Type1RTT, quictrace.Frame{Type: quictrace.FrameStreamMin, StreamID: 0}), cli, srv, "d1"),
	}
	build := func(challenger quictrace.Direction) *quictrace.Trace {
		resp := quictrace.ServerToClient
		if challenger == quictrace.ServerToClient {
			resp = quictrace.ClientToServer
		}
		ds := append([]quictrace.Datagram{}, base...)
		ds = append(ds, on(pkt(quictrace.ClientToServer, quictrace.Type1RTT, quictrace.Frame{Type: quictrace.FramePing, StreamID: -1}), cli, pref, "d2"))
		for _, dir := range []quictrace.Direction{challenger, resp} {
			typ := quictrace.FramePathChallenge
			if dir == resp {
				typ = quictrace.FramePathResponse
			}
			src, dst := cli, pref
			if dir == quictrace.ServerToClient {
				src, dst = pref, cli
			}
			ds = append(ds, on(pkt(dir, quictrace.Type1RTT, quictrace.Frame{Type: uint64(typ), StreamID: -1, Data: data}), src, dst, "d2"))
		}
		return &quictrace.Trace{Datagrams: ds}
	}
	wantPass(t, checkConnectionMigration(build(quictrace.ClientToServer)))
	wantFail(t, checkConnectionMigration(build(quictrace.ServerToClient)), "did not validate the preferred address")
	noOffer := build(quictrace.ClientToServer)
	noOffer.Datagrams[0].Packets[0].TLS = nil
	wantFail(t, checkConnectionMigration(noOffer), "no preferred_address")
}
