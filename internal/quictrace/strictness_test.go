package quictrace

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Misbehaving endpoints whose traces passed the looser checks: each test builds the good trace
// and the one misbehaviour, and asserts the check fails for that reason.

// pkt is a decrypted packet of one direction.
func pkt(dir Direction, typ PacketType, frames ...Frame) Packet {
	return Packet{Dir: dir, Type: typ, LongHdr: typ != Type1RTT, Version: Version1, Decrypted: true, PN: -1, Frames: frames}
}

// serverInitial is a server Initial of handshake scid carrying TLS messages.
func serverInitial(scid string, tls ...TLSMessage) Packet {
	p := pkt(ServerToClient, TypeInitial)
	p.SCID, p.TLS = scid, tls
	return p
}

// serverHandshake is a server Handshake packet of handshake scid carrying TLS messages.
func serverHandshake(scid string, tls ...TLSMessage) Packet {
	p := pkt(ServerToClient, TypeHandshake)
	p.SCID, p.TLS = scid, tls
	return p
}

// trace puts each packet in its own datagram, numbering frames from 1.
func trace(ps ...Packet) *Trace {
	t := &Trace{}
	for i, p := range ps {
		p.Frame = i + 1
		t.Datagrams = append(t.Datagrams, Datagram{Frame: i + 1, Dir: p.Dir, Conn: p.Conn, UDPLen: 1200, Packets: []Packet{p}})
	}
	return t
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

// keyupdate: the case tells the client to update; a server that updates on its own (and a client
// that merely follows) produced key phase 1 both ways and passed.
func TestKeyUpdateClientMustInitiate(t *testing.T) {
	kp := func(dir Direction, phase int) Packet {
		p := pkt(dir, Type1RTT, Frame{Type: FrameStreamMin, StreamID: 0, Length: 100})
		p.KeyPhase = phase
		return p
	}
	hs := serverInitial("s1")
	wantPass(t, CheckKeyUpdate(trace(hs, kp(ClientToServer, 0), kp(ClientToServer, 1), kp(ServerToClient, 1))))
	wantFail(t, CheckKeyUpdate(trace(hs, kp(ClientToServer, 0), kp(ServerToClient, 1), kp(ClientToServer, 1))), "the server initiated")
}

// zerortt: 0-RTT packets that carry no requests (PING/PADDING only, the requests going in small
// 1-RTT packets: wirelab's 10-letter names keep 40 requests far below 5000 B), or 0-RTT the
// server rejected, passed on "0-RTT payload > 0".
func TestZeroRTTRequestsAcceptedByServer(t *testing.T) {
	ee := func(exts ...uint16) TLSMessage { return TLSMessage{Type: TLSEncryptedExtensions, Extensions: exts} }
	build := func(zeroRTT Packet, second TLSMessage) *Trace {
		zeroRTT.Payload = 600
		return trace(serverInitial("s1"), serverHandshake("s1", ee()), serverInitial("s2"), zeroRTT, serverHandshake("s2", second))
	}
	requests := pkt(ClientToServer, Type0RTT, Frame{Type: FrameStreamMin + 3, StreamID: 0, Length: 17})
	pingOnly := pkt(ClientToServer, Type0RTT, Frame{Type: FramePing, StreamID: -1}, Frame{Type: FramePadding, StreamID: -1})
	wantPass(t, CheckZeroRTT(build(requests, ee(TLSExtEarlyData))))
	wantFail(t, CheckZeroRTT(build(pingOnly, ee(TLSExtEarlyData))), "carry no STREAM data")
	wantFail(t, CheckZeroRTT(build(requests, ee())), "0-RTT was rejected")

	// Go's crypto/tls logs no early secret: 0-RTT stays opaque, and the requests are inferred
	// from 1-RTT — answered streams the client never opened there came in 0-RTT.
	opaque := pkt(ClientToServer, Type0RTT)
	opaque.Decrypted = false
	answer := pkt(ServerToClient, Type1RTT, Frame{Type: FrameStreamMin + 3, StreamID: 4, Length: 32})
	withAnswers := func(ps ...Packet) *Trace {
		tr := build(opaque, ee(TLSExtEarlyData))
		for _, p := range ps {
			tr.Datagrams = append(tr.Datagrams, Datagram{Frame: len(tr.Datagrams) + 1, Dir: p.Dir, UDPLen: 1200, Packets: []Packet{p}})
		}
		return tr
	}
	wantPass(t, CheckZeroRTT(withAnswers(answer)))
	in1RTT := pkt(ClientToServer, Type1RTT, Frame{Type: FrameStreamMin + 3, StreamID: 4, Length: 17})
	wantFail(t, CheckZeroRTT(withAnswers(in1RTT, answer)), "every answered request was opened in 1-RTT")
	wantFail(t, CheckZeroRTT(withAnswers()), "could not be decrypted")
}

// resumption: the second handshake showed no Certificate when its Handshake packets were not
// decrypted (the client logged no keys for it), even after a full handshake.
func TestResumptionNeedsPSK(t *testing.T) {
	sh := func(exts ...uint16) TLSMessage { return TLSMessage{Type: TLSServerHello, Extensions: exts} }
	ee := TLSMessage{Type: TLSEncryptedExtensions}
	cert := TLSMessage{Type: TLSCertificate}
	first := []Packet{serverInitial("s1", sh()), serverHandshake("s1", ee, cert)}
	build := func(second ...Packet) *Trace { return trace(append(append([]Packet{}, first...), second...)...) }
	wantPass(t, CheckResumption(build(serverInitial("s2", sh(TLSExtPreSharedKey)), serverHandshake("s2", ee))))
	undecrypted := serverHandshake("s2")
	undecrypted.Decrypted = false
	wantFail(t, CheckResumption(build(serverInitial("s2", sh()), undecrypted)), "no pre_shared_key")
	wantFail(t, CheckResumption(build(serverInitial("s2", sh(TLSExtPreSharedKey)), undecrypted)), "not decrypted")
	wantFail(t, CheckResumption(build(serverInitial("s2", sh(TLSExtPreSharedKey)), serverHandshake("s2", ee, cert))), "carries a Certificate")
}

// retry: a client that resets its packet numbers or keeps its original DCID, or a server that
// Retries again after the token, passed on "some later Initial echoes the token".
func TestRetryStrictness(t *testing.T) {
	initial := func(pn int64, dcid, token string) Packet {
		p := pkt(ClientToServer, TypeInitial)
		p.PN, p.DCID, p.Token = pn, dcid, token
		return p
	}
	retry := func(scid, token string) Packet {
		p := pkt(ServerToClient, TypeRetry)
		p.SCID, p.Token = scid, token
		return p
	}
	hs := serverInitial("s1")
	wantPass(t, CheckRetry(trace(initial(0, "orig", ""), retry("r1", "t1"), initial(1, "r1", "t1"), hs)))
	// A stateless server answers a retransmitted first Initial with a second Retry: allowed.
	wantPass(t, CheckRetry(trace(initial(0, "orig", ""), initial(1, "orig", ""), retry("r1", "t1"), retry("r2", "t2"), initial(2, "r1", "t1"), hs)))
	wantFail(t, CheckRetry(trace(initial(0, "orig", ""), retry("r1", "t1"), initial(0, "r1", "t1"), hs)), "packet numbers were reset")
	wantFail(t, CheckRetry(trace(initial(0, "orig", ""), retry("r1", "t1"), initial(1, "orig", "t1"), hs)), "want the Retry's SCID")
	wantFail(t, CheckRetry(trace(initial(0, "orig", ""), retry("r1", "t1"), initial(1, "r1", "t1"), retry("r2", "t2"), initial(2, "r2", "t2"), hs)), "token was not accepted")
}

// ecn: ACK_ECN frames with all-zero counts (the frame type without reading the marks) passed.
func TestECNCountsReportPeerMarks(t *testing.T) {
	build := func(ect0 uint64) *Trace {
		tr := &Trace{}
		for _, dir := range []Direction{ClientToServer, ServerToClient} {
			d := dg(dir, 100, Type1RTT)
			d.Packets[0].Frames = []Frame{{Type: FrameAckECN, StreamID: -1, ECT0: ect0}}
			tr.Datagrams = append(tr.Datagrams, d)
		}
		return tr
	}
	wantPass(t, CheckECN(build(3)))
	wantFail(t, CheckECN(build(0)), "none of the peer's ECT marks were reported")
}

// multiplexing: a client that opens streams beyond the server's limit (and a server that does
// not enforce it) passed on "initial_max_streams_bidi <= 1000" alone.
func TestMultiplexingClientWithinLimit(t *testing.T) {
	two := uint64(2)
	ee := serverHandshake("s1", TLSMessage{Type: TLSEncryptedExtensions, InitialMaxStreamsBidi: &two})
	stream := func(id int64) Packet {
		return pkt(ClientToServer, Type1RTT, Frame{Type: FrameStreamMin, StreamID: id, Length: 10})
	}
	raise := pkt(ServerToClient, Type1RTT, Frame{Type: FrameMaxStreamsBidi, StreamID: -1, MaxStreams: 3})
	wantPass(t, CheckMultiplexing(trace(serverInitial("s1"), ee, stream(0), stream(4), raise, stream(8))))
	wantFail(t, CheckMultiplexing(trace(serverInitial("s1"), ee, stream(0), stream(4), stream(8), raise)), "while the server's limit was 2")
}

// connectionmigration: the client must move to the server's preferred address and validate
// that path itself; a server-only validation, or a migration elsewhere, does not count.
func TestConnectionMigrationPreferredAddress(t *testing.T) {
	srv, pref, cli := "127.0.0.1:443", "127.0.0.1:4443", "127.0.0.1:5000"
	on := func(p Packet, src, dst, dcid string) Datagram {
		p.DCID = dcid
		return Datagram{Dir: p.Dir, Src: src, Dst: dst, Packets: []Packet{p}}
	}
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	ee := serverHandshake("s1", TLSMessage{Type: TLSEncryptedExtensions, PreferredAddresses: []string{pref}})
	base := []Datagram{
		on(ee, srv, cli, "c1"),
		on(pkt(ClientToServer, Type1RTT, Frame{Type: FrameStreamMin, StreamID: 0}), cli, srv, "d1"),
	}
	build := func(challenger Direction) *Trace {
		resp := ServerToClient
		if challenger == ServerToClient {
			resp = ClientToServer
		}
		ds := append([]Datagram{}, base...)
		ds = append(ds, on(pkt(ClientToServer, Type1RTT, Frame{Type: FramePing, StreamID: -1}), cli, pref, "d2"))
		for _, dir := range []Direction{challenger, resp} {
			typ := FramePathChallenge
			if dir == resp {
				typ = FramePathResponse
			}
			src, dst := cli, pref
			if dir == ServerToClient {
				src, dst = pref, cli
			}
			ds = append(ds, on(pkt(dir, Type1RTT, Frame{Type: uint64(typ), StreamID: -1, Data: data}), src, dst, "d2"))
		}
		return &Trace{Datagrams: ds}
	}
	wantPass(t, CheckConnectionMigration(build(ClientToServer)))
	wantFail(t, CheckConnectionMigration(build(ServerToClient)), "did not validate the preferred address")
	noOffer := build(ClientToServer)
	noOffer.Datagrams[0].Packets[0].TLS = nil
	wantFail(t, CheckConnectionMigration(noOffer), "no preferred_address")
}

// http3: one answered request hid unanswered ones ("requests > 0 and responses > 0").
func TestHTTP3EveryRequestAnswered(t *testing.T) {
	wantPass(t, CheckHTTP3(h3Trace()))
	unanswered := H3Stream{ID: 4, Dir: ClientToServer, ClientStarted: true, FrameTypes: []uint64{H3FrameHeaders}}
	wantFail(t, CheckHTTP3(h3Trace(unanswered)), "request on stream 4")
}

// chacha20: the ServerHello must select the one suite offered.
func TestChaCha20ServerSelects(t *testing.T) {
	ch := pkt(ClientToServer, TypeInitial)
	ch.TLS = []TLSMessage{{Type: TLSClientHello, CipherSuites: []uint16{TLSChaCha20Poly1305SHA256}}}
	sh := func(cs uint16) Packet {
		return serverInitial("s1", TLSMessage{Type: TLSServerHello, CipherSuites: []uint16{cs}})
	}
	wantPass(t, CheckChaCha20(trace(ch, sh(TLSChaCha20Poly1305SHA256))))
	wantFail(t, CheckChaCha20(trace(ch, sh(TLSAES128GCMSHA256))), "ServerHello selects")
}

// A real full-handshake pair whose client logged no secrets for the second connection: with
// the Certificate hidden, "no Certificate in the second handshake" read it as resumed.
func TestResumptionUndecryptedFullHandshake(t *testing.T) {
	r := needTshark(t)
	keys := firstConnectionKeys(t, filepath.Join(testdata, "fullhandshakes.keys"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tr, err := Load(ctx, r, filepath.Join(testdata, "fullhandshakes.pcap"), keys, "")
	if err != nil {
		t.Fatal(err)
	}
	hs := tr.Handshakes()
	if len(hs) != 2 {
		t.Fatalf("%d handshakes", len(hs))
	}
	if _, by := tr.serverTLSByHandshake(); hasTLS(by[hs[1]], TLSCertificate) {
		t.Fatal("the second handshake is still decrypted: the keylog filter did not work")
	}
	wantFail(t, CheckResumption(tr), "no pre_shared_key")
}

// firstConnectionKeys writes a keylog holding only the first connection's secrets (the first
// client random in the file).
func firstConnectionKeys(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	first := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			continue
		}
		if first == "" {
			first = fs[1]
		}
		if fs[1] == first {
			out = append(out, sc.Text())
		}
	}
	dst := filepath.Join(t.TempDir(), "first.keys")
	if err := os.WriteFile(dst, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}
