package quictrace

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/quicvarint"
	"github.com/wirelab/wirelab/internal/tshark"
	"github.com/wirelab/wirelab/internal/tshark/tsharktest"
)

// Fixtures are recorded by conformance/quic/fixtures/gen.sh.
const testdata = "../../conformance/quic/testdata"

var update = flag.Bool("update", false, "rewrite the stored tshark JSON samples (needs the wirelab/tshark image)")

// needTshark skips when the tshark image is missing, unless WIRELAB_INTEGRATION=1.
func needTshark(t *testing.T) *tshark.Tool {
	t.Helper()
	return tsharktest.Need(t)
}

var (
	loadMu sync.Mutex
	loaded = map[string]*Trace{}
)

// fixture runs the one tshark pass over testdata/<name>.pcap (+ .keys), cached per test binary.
func fixture(t *testing.T, r *tshark.Tool, name string) *Trace {
	t.Helper()
	return fixtureWith(t, r, name, "")
}

// fixtureWith is fixture with a display filter (LongHeaderFilter or "").
func fixtureWith(t *testing.T, r *tshark.Tool, name, filter string) *Trace {
	t.Helper()
	loadMu.Lock()
	defer loadMu.Unlock()
	key := name + "|" + filter
	if tr, ok := loaded[key]; ok {
		return tr
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tr, err := Load(ctx, r, filepath.Join(testdata, name+".pcap"), filepath.Join(testdata, name+".keys"), filter)
	if err != nil {
		t.Fatal(err)
	}
	loaded[key] = tr
	return tr
}

// Each check passes on its good fixture and fails on a bad one.
var fixtureCases = []struct {
	check, fixture string
	pass           bool
}{
	{"handshake", "handshake", true},
	{"handshake", "retry", false},          // a Retry
	{"handshake", "v2", false},             // server Initials v2
	{"handshake", "fullhandshakes", false}, // 2 handshakes
	{"transfer", "transfer", true},
	{"transfer", "resumption", false},
	{"retry", "retry", true},
	{"retry", "handshake", false},
	{"v2", "v2", true},
	{"v2", "handshake", false},
	{"versionnegotiation", "versionnegotiation", true},
	{"versionnegotiation", "handshake", false},  // no Version Negotiation
	{"versionnegotiation", "vn-abandon", false}, // VN, but the client does not try again
	{"versionnegotiation", "v2", false},         // compatible negotiation is not VN
	{"chacha20", "chacha20", true},
	{"chacha20", "handshake", false},
	{"http3", "handshake", true},
	{"http3", "zerortt", true},
	{"http3", "aioquic-noh3", false}, // client opens no control/QPACK streams
	{"resumption", "resumption", true},
	{"resumption", "fullhandshakes", false}, // Certificate in both handshakes
	{"resumption", "handshake", false},
	{"zerortt", "zerortt", true},
	{"zerortt", "resumption", false}, // resumed without 0-RTT
	{"keyupdate", "keyupdate", true},
	{"keyupdate", "transfer", false},
	{"keyupdate", "aioquic-serverkeyupdate", false}, // the server initiated, the client only responded
	{"multiplexing", "handshake", true},
	{"multiplexing", "manystreams", false}, // initial_max_streams_bidi 5000
	{"ecn", "handshake", true},
	{"ecn", "aioquic-noh3", false}, // the aioquic client sends no ECT marks
	{"amplificationlimit", "amplification", true},
	{"amplificationlimit", "handshake", false}, // one small certificate: the limit never binds
	{"rebind-port", "rebind", true},
	{"rebind-port", "migration", true},
	{"rebind-port", "handshake", false}, // one path
	{"rebind-addr", "rebind", false},    // loopback: the port changes, the IP does not
	{"connectionmigration", "preferredaddr", true},
	{"connectionmigration", "rebind", false},                // NAT rebinding keeps the DCID
	{"connectionmigration", "migration", false},             // no preferred address offered
	{"connectionmigration", "preferredaddr-ignored", false}, // offered, the client moved its own address instead
	{"ipv6", "ipv6", true},
	{"ipv6", "handshake", false},
	{"longrtt", "longrtt", true},
	{"longrtt", "handshake", false}, // one ClientHello
	{"handshakeloss", "handshake", false},
}

// handshakeloss counts 50 handshakes; the same check with n = 2 passes on the two-connection fixture.
func TestHandshakeCount(t *testing.T) {
	r := needTshark(t)
	if res := HandshakeCount("two", 2)(fixture(t, r, "resumption")); !res.OK() {
		t.Error(res)
	}
	if res := HandshakeCount("two", 2)(fixture(t, r, "handshake")); res.OK() {
		t.Error(res)
	}
}

func TestRebindAddrSynthetic(t *testing.T) {
	mk := func(dir Direction, src, dst string, f Frame) Datagram {
		d := dg(dir, 100, Type1RTT)
		d.Src, d.Dst = src, dst
		d.Packets[0].Frames = []Frame{f}
		return d
	}
	srv := "10.0.0.1:443"
	ch := Frame{Type: FramePathChallenge, StreamID: -1, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	rs := Frame{Type: FramePathResponse, StreamID: -1, Data: ch.Data}
	good := &Trace{Datagrams: []Datagram{
		mk(ClientToServer, "10.0.1.5:5000", srv, Frame{Type: FramePing, StreamID: -1}),
		mk(ClientToServer, "10.0.1.6:5000", srv, Frame{Type: FramePing, StreamID: -1}),
		mk(ServerToClient, srv, "10.0.1.6:5000", ch),
		mk(ClientToServer, "10.0.1.6:5000", srv, rs),
	}}
	if r := CheckRebindAddr(good); !r.OK() {
		t.Error(r)
	}
	bad := &Trace{Datagrams: good.Datagrams[:3]} // challenge never answered
	if r := CheckRebindAddr(bad); r.OK() {
		t.Error(r)
	}
}

func TestChecksOnFixtures(t *testing.T) {
	r := needTshark(t)
	for _, c := range fixtureCases {
		t.Run(c.check+"/"+c.fixture, func(t *testing.T) {
			res := Checks[c.check](fixture(t, r, c.fixture))
			t.Log(res)
			if res.OK() != c.pass {
				t.Errorf("%s on %s: got %s, want pass=%v", c.check, c.fixture, res, c.pass)
			}
		})
	}
}

// Every check has a good and a bad case (real fixture or synthetic, see below).
func TestEveryCheckHasCases(t *testing.T) {
	good, bad := map[string]bool{}, map[string]bool{}
	for _, c := range fixtureCases {
		if c.pass {
			good[c.check] = true
		} else {
			bad[c.check] = true
		}
	}
	bad["amplificationlimit"] = true   // TestAmplificationLimitSynthetic
	good["rebind-addr"] = true         // TestRebindAddrSynthetic
	good["handshakeloss"] = true       // TestHandshakeCount
	good["handshakecorruption"] = true // same check as handshakeloss
	bad["handshakecorruption"] = true
	for _, n := range CheckNames() {
		if !good[n] || !bad[n] {
			t.Errorf("check %s: good case %v, bad case %v", n, good[n], bad[n])
		}
	}
}

func TestInjectSecrets(t *testing.T) {
	r := needTshark(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := filepath.Join(t.TempDir(), "handshake.pcapng")
	if err := r.InjectSecrets(ctx, filepath.Join(testdata, "handshake.pcap"), filepath.Join(testdata, "handshake.keys"), out); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(ctx, r, out, "", "") // no keylog: the secrets are in the file
	if err != nil {
		t.Fatal(err)
	}
	if res := CheckHandshake(tr); !res.OK() {
		t.Fatal(res)
	}
	if res := CheckHTTP3(tr); !res.OK() {
		t.Fatal(res)
	}
}

// The stored sample is tshark's output for testdata/handshake.pcap; parsing needs no docker.
// Refresh with: go test ./internal/quictrace -run TestStoredSample -update
func TestStoredSample(t *testing.T) {
	path := filepath.Join(testdata, "handshake.tshark.json.gz")
	if *update {
		r := needTshark(t)
		var out bytes.Buffer
		err := r.Exec(context.Background(), filepath.Join(testdata, "handshake.pcap"), filepath.Join(testdata, "handshake.keys"), &out, TsharkArgs("")...)
		if err != nil {
			t.Fatal(err)
		}
		b := out.Bytes()
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Parse(zr)
	if err != nil {
		t.Fatal(err)
	}
	// Assertions hold for any recording of the handshake scenario (gen.sh), not one capture.
	if len(tr.Datagrams) < 6 {
		t.Fatalf("%d datagrams, want >= 6", len(tr.Datagrams))
	}
	d0, d1 := tr.Datagrams[0], tr.Datagrams[1]
	if d0.Dir != ClientToServer || d1.Dir != ServerToClient || d0.UDPLen != 1200 || d0.ECN != ECNECT0 {
		t.Errorf("datagram 1: %+v", d0)
	}
	// The server's first datagram coalesces Initial and Handshake (then 1-RTT) packets.
	var types []PacketType
	for _, p := range d1.Packets {
		types = append(types, p.Type)
	}
	if len(types) < 2 || !equalTypes(types[:2], []PacketType{TypeInitial, TypeHandshake}) {
		t.Fatalf("server's first datagram: packet types %v, want Initial, Handshake, ...", types)
	}
	if d1.Packets[0].SCID != d1.Packets[1].SCID || d1.Packets[0].DCID != d0.Packets[0].SCID {
		t.Errorf("connection IDs: client SCID %s, server Initial DCID %s SCID %s, Handshake SCID %s",
			d0.Packets[0].SCID, d1.Packets[0].DCID, d1.Packets[0].SCID, d1.Packets[1].SCID)
	}
	chs := tr.ClientHellos()
	if len(chs) != 1 || len(chs[0].CipherSuites) != 4 || chs[0].CipherSuites[2] != TLSChaCha20Poly1305SHA256 {
		t.Errorf("ClientHellos: %+v", chs)
	}
	hs := d1.Packets[1]
	var msgs []int
	for _, m := range hs.TLS {
		msgs = append(msgs, m.Type)
	}
	if len(msgs) != 4 || msgs[0] != TLSEncryptedExtensions || msgs[1] != TLSCertificate {
		t.Errorf("server Handshake packet TLS messages %v", msgs)
	}
	if p := hs.TLS[0].InitialMaxStreamsBidi; p == nil || *p != 100 {
		t.Errorf("initial_max_streams_bidi: %v", p)
	}
	if got := len(tr.Handshakes()); got != 1 {
		t.Errorf("%d handshakes", got)
	}
	uni := map[uint64]int{}
	for _, s := range tr.H3Streams {
		if s.UniType != nil {
			uni[*s.UniType]++
		}
	}
	if uni[H3StreamControl] != 2 || uni[H3StreamQPACKEncoder] != 2 || uni[H3StreamQPACKDecoder] != 2 {
		t.Errorf("uni stream types %v", uni)
	}
	for name, want := range map[string]bool{"handshake": true, "http3": true, "ecn": true, "amplificationlimit": false, "retry": false, "v2": false, "keyupdate": false} {
		if res := Checks[name](tr); res.OK() != want {
			t.Errorf("%s: %s, want pass=%v", name, res, want)
		}
	}
}

func equalTypes(a, b []PacketType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func dg(dir Direction, n int, pt PacketType) Datagram {
	return Datagram{Dir: dir, UDPLen: n, ECN: ECNECT0, Packets: []Packet{{Dir: dir, Type: pt, LongHdr: pt != Type1RTT, Version: Version1, SCID: "aa"}}}
}

// withCrypto gives a server Handshake datagram CRYPTO data up to end (the certificate chain).
func withCrypto(d Datagram, end uint64) Datagram {
	d.Packets[0].Frames = []Frame{{Type: FrameCrypto, StreamID: -1, Offset: end - 1000, Length: 1000}}
	return d
}

func TestAmplificationLimitSynthetic(t *testing.T) {
	ok := &Trace{Datagrams: []Datagram{dg(ClientToServer, 1200, TypeInitial), dg(ServerToClient, 1200, TypeInitial), dg(ServerToClient, 1200, TypeHandshake), withCrypto(dg(ServerToClient, 1200, TypeHandshake), 4500), dg(ClientToServer, 100, TypeHandshake), dg(ServerToClient, 1200, Type1RTT)}}
	if r := CheckAmplificationLimit(ok); !r.OK() {
		t.Error(r)
	}
	// A server that ignores the long chain never approaches the limit: nothing was tested.
	small := &Trace{Datagrams: []Datagram{dg(ClientToServer, 1200, TypeInitial), withCrypto(dg(ServerToClient, 1200, TypeHandshake), 1500), dg(ClientToServer, 100, TypeHandshake)}}
	if r := CheckAmplificationLimit(small); r.OK() || !strings.Contains(r.Reason, "never reached") {
		t.Errorf("small chain must fail: %s", r)
	}
	bad := &Trace{Datagrams: []Datagram{dg(ClientToServer, 1200, TypeInitial), dg(ServerToClient, 1200, TypeInitial), dg(ServerToClient, 1200, TypeHandshake), dg(ServerToClient, 1200, TypeHandshake), dg(ServerToClient, 1200, TypeHandshake), dg(ClientToServer, 100, TypeHandshake)}}
	if r := CheckAmplificationLimit(bad); r.OK() {
		t.Error(r)
	}
}

func TestECNSynthetic(t *testing.T) {
	mk := func(ecn int) *Trace {
		tr := &Trace{}
		for _, dir := range []Direction{ClientToServer, ServerToClient} {
			d := dg(dir, 100, Type1RTT)
			d.ECN = ecn
			d.Packets[0].Frames = []Frame{{Type: FrameAckECN, StreamID: -1, ECT0: 1, ECT1: 1}}
			tr.Datagrams = append(tr.Datagrams, d)
		}
		return tr
	}
	if r := CheckECN(mk(ECNECT1)); !r.OK() {
		t.Error(r)
	}
	if r := CheckECN(mk(ECNNotECT)); r.OK() {
		t.Error(r)
	}
	ce := mk(ECNECT0)
	ce.Datagrams = append(ce.Datagrams, Datagram{Dir: ServerToClient, ECN: ECNCE})
	if r := CheckECN(ce); r.OK() {
		t.Error(r)
	}
}

func TestVarint(t *testing.T) {
	for _, c := range []struct {
		in []byte
		v  uint64
		n  int
	}{
		{[]byte{0x25}, 37, 1},
		{[]byte{0x7b, 0xbd}, 15293, 2},
		{[]byte{0x9d, 0x7f, 0x3e, 0x7d}, 494878333, 4},
		{[]byte{0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c}, 151288809941952652, 8},
		{[]byte{0x7b}, 0, 0},
	} {
		if v, n := quicvarint.Read(c.in); v != c.v || n != c.n {
			t.Errorf("quicvarint.Read(%x) = %d,%d want %d,%d", c.in, v, n, c.v, c.n)
		}
	}
}

func TestParseH3Stream(t *testing.T) {
	// control stream: type 0, SETTINGS (len 2), GOAWAY (len 1)
	s := parseH3Stream(2, []byte{0x00, 0x04, 0x02, 0x01, 0x40, 0x07, 0x01, 0x00})
	if !s.Uni || s.UniType == nil || *s.UniType != H3StreamControl || len(s.FrameTypes) != 2 || s.FrameTypes[0] != H3FrameSettings {
		t.Errorf("control: %+v", s)
	}
	// request stream: HEADERS (len 1), DATA (len 5, only 2 bytes captured)
	s = parseH3Stream(0, []byte{0x01, 0x01, 0xd1, 0x00, 0x05, 'a', 'b'})
	if s.Uni || len(s.FrameTypes) != 2 || s.FrameTypes[0] != H3FrameHeaders || s.FrameTypes[1] != H3FrameData {
		t.Errorf("request: %+v", s)
	}
}

func TestTsharkArgs(t *testing.T) {
	want := []string{"-d", "udp.port==443,quic", "-d", "udp.port==4443,quic", "-T", "json", "--no-duplicate-keys", "-J", Protocols}
	if got := TsharkArgs(""); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("args %q, want %q", got, want)
	}
	want = append(append(DecodeAs(), "-Y", LongHeaderFilter), want[4:]...)
	if got := TsharkArgs(LongHeaderFilter); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("filtered args %q, want %q", got, want)
	}
}
