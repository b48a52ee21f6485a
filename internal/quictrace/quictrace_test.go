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

	"github.com/wirelab/wirelab/internal/gzfixture"
	"github.com/wirelab/wirelab/internal/quicvarint"
	"github.com/wirelab/wirelab/internal/tshark"
	"github.com/wirelab/wirelab/internal/tshark/tsharktest"
)

// Fixtures are recorded by conformance/quic/fixtures/gen.sh.
const testdata = "../../conformance/quic/testdata"

var update = flag.Bool("update", false, "rewrite the stored tshark JSON samples (needs the wirelab/tshark image)")

// needTshark returns the tshark image's tool; without the image it skips, or fails in CI and
// under WIRELAB_INTEGRATION=1 (tsharktest.Need).
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
	tr, err := Parse(bytes.NewReader(gzfixture.Read(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	// Assertions hold for any recording of the handshake scenario (gen.sh), not one capture.
	// The checks' verdicts on this sample are asserted in internal/quiccheck.
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
