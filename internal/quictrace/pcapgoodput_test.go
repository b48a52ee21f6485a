package quictrace

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rawPcap writes a LINKTYPE_RAW pcap with nanosecond stamps (what the sim writes) of IPv4/UDP
// datagrams; each entry is (time offset, source port, UDP payload).
type rawDatagram struct {
	at      time.Duration
	srcPort uint16
	payload []byte
}

func rawPcap(t *testing.T, dgs []rawDatagram) string {
	t.Helper()
	var b bytes.Buffer
	hdr := make([]byte, 24)
	binary.LittleEndian.PutUint32(hdr[0:], 0xa1b23c4d)
	binary.LittleEndian.PutUint16(hdr[4:], 2)
	binary.LittleEndian.PutUint16(hdr[6:], 4)
	binary.LittleEndian.PutUint32(hdr[16:], 65535)
	binary.LittleEndian.PutUint32(hdr[20:], 101)
	b.Write(hdr)
	t0 := time.Unix(1000, 0)
	for _, d := range dgs {
		ip := make([]byte, 28+len(d.payload))
		ip[0], ip[9] = 0x45, 17
		dst := uint16(50000)
		if d.srcPort != ServerPort {
			dst = ServerPort
		}
		binary.BigEndian.PutUint16(ip[20:], d.srcPort)
		binary.BigEndian.PutUint16(ip[22:], dst)
		copy(ip[28:], d.payload)
		at := t0.Add(d.at)
		rec := make([]byte, 16)
		binary.LittleEndian.PutUint32(rec[0:], uint32(at.Unix()))
		binary.LittleEndian.PutUint32(rec[4:], uint32(at.Nanosecond()))
		binary.LittleEndian.PutUint32(rec[8:], uint32(len(ip)))
		binary.LittleEndian.PutUint32(rec[12:], uint32(len(ip)))
		b.Write(rec)
		b.Write(ip)
	}
	p := filepath.Join(t.TempDir(), "trace.pcap")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// longPacket is a v1 long-header packet of the given type (0 Initial, 2 Handshake, 3 Retry)
// with 8-byte CIDs and a payload of n bytes (Initial: empty token).
func longPacket(typ byte, n int) []byte {
	p := []byte{0xc0 | typ<<4, 0, 0, 0, 1, 8, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1}
	if typ == 3 {
		return append(p, make([]byte, 16+n)...) // Retry: token and integrity tag, no Length
	}
	if typ == 0 {
		p = append(p, 0) // token length
	}
	p = append(p, 0x40|byte(n>>8), byte(n)) // 2-byte varint Length
	return append(p, make([]byte, n)...)
}

func shortPacket(n int) []byte {
	return append([]byte{0x41, 1, 2, 3, 4, 5, 6, 7, 8}, make([]byte, n)...)
}

func TestGoodputFromPcapSynthetic(t *testing.T) {
	coalesced := append(longPacket(2, 40), shortPacket(100)...)
	vn := []byte{0x80, 0, 0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 1}
	dgs := []rawDatagram{
		{0, ServerPort, longPacket(0, 1100)},                     // handshake only: not counted
		{100 * time.Millisecond, ServerPort, coalesced},          // Handshake + 1-RTT: the first
		{time.Second, 50000, shortPacket(30)},                    // the client's: not counted
		{2100 * time.Millisecond, ServerPort, shortPacket(1200)}, // the last
		{3 * time.Second, ServerPort, longPacket(3, 20)},         // a Retry is no 1-RTT packet
		{4 * time.Second, ServerPort, vn},                        // nor is Version Negotiation
		{5 * time.Second, 50000, shortPacket(30)},                // the client's last ACK
	}
	kbps, span, err := GoodputFromPcap(rawPcap(t, dgs), 1_000_000)
	if err != nil || span != 2*time.Second || kbps != 4000 {
		t.Fatalf("got %.1f kbps over %v (%v), want 4000 over 2s", kbps, span, err)
	}
	// The server never reached 1-RTT: no number, the measurement fails.
	if _, _, err := GoodputFromPcap(rawPcap(t, dgs[:1]), 1_000_000); err == nil {
		t.Fatal("no 1-RTT packets: want an error")
	}
}

func TestGoodputFromPcapRejectsBrokenFiles(t *testing.T) {
	good, err := os.ReadFile(rawPcap(t, []rawDatagram{{0, ServerPort, shortPacket(10)}, {time.Second, ServerPort, shortPacket(10)}}))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"not a pcap":       append([]byte("0123"), good[4:]...),
		"truncated record": good[:len(good)-5],
		"short header":     good[:10],
	} {
		p := filepath.Join(t.TempDir(), "bad.pcap")
		_ = os.WriteFile(p, b, 0o644)
		if _, _, err := GoodputFromPcap(p, 1000); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: got %v, want an error naming %s", name, err, p)
		}
	}
}

// The pcap scan and tshark agree on when the server's 1-RTT data started and ended.
func TestGoodputFromPcapMatchesTshark(t *testing.T) {
	r := needTshark(t)
	for _, name := range []string{"transfer", "chacha20", "ipv6", "v2"} {
		tr := fixture(t, r, name)
		var first, last time.Time
		for _, p := range tr.Filter(func(p *Packet) bool { return p.Dir == ServerToClient && p.Type == Type1RTT }) {
			if first.IsZero() {
				first = p.Time
			}
			last = p.Time
		}
		_, span, err := GoodputFromPcap(filepath.Join(testdata, name+".pcap"), 1<<20)
		if err != nil || span != last.Sub(first) {
			t.Errorf("%s: pcap span %v (%v), tshark %v", name, span, err, last.Sub(first))
		}
	}
}
