package main

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/netem"
)

// udp4 builds an IPv4/UDP packet with valid checksums.
func udp4(src, dst netip.AddrPort, payload []byte, ecn byte) []byte {
	b := make([]byte, 28+len(payload))
	b[0], b[1] = 0x45, ecn
	binary.BigEndian.PutUint16(b[2:], uint16(len(b)))
	b[8], b[9] = 64, protoUDP
	s, d := src.Addr().As4(), dst.Addr().As4()
	copy(b[12:], s[:])
	copy(b[16:], d[:])
	binary.BigEndian.PutUint16(b[20:], src.Port())
	binary.BigEndian.PutUint16(b[22:], dst.Port())
	binary.BigEndian.PutUint16(b[24:], uint16(8+len(payload)))
	b[26] = 1 // nonzero: the packet has a checksum
	copy(b[28:], payload)
	ipv4HeaderChecksum(b)
	p := parsePacket(b)
	p.transportChecksum()
	return b
}

// tcp6 builds an IPv6/TCP packet with a valid checksum.
func tcp6(src, dst netip.AddrPort, payload []byte) []byte {
	b := make([]byte, 60+len(payload))
	b[0] = 0x60
	binary.BigEndian.PutUint16(b[4:], uint16(20+len(payload)))
	b[6], b[7] = protoTCP, 64
	s, d := src.Addr().As16(), dst.Addr().As16()
	copy(b[8:], s[:])
	copy(b[24:], d[:])
	binary.BigEndian.PutUint16(b[40:], src.Port())
	binary.BigEndian.PutUint16(b[42:], dst.Port())
	b[52] = 5 << 4
	copy(b[60:], payload)
	p := parsePacket(b)
	p.transportChecksum()
	return b
}

// checksumsValid verifies the packet as a receiver's stack would.
func checksumsValid(b []byte) bool {
	p := parsePacket(b)
	if !p.v6 && fold(sum16(b[:20], 0)) != 0 {
		return false
	}
	var sum uint32
	if p.v6 {
		sum = sum16(b[8:40], 0)
	} else {
		sum = sum16(b[12:20], 0)
	}
	seg := b[p.l4:]
	sum += uint32(p.proto) + uint32(len(seg))
	return fold(sum16(seg, sum)) == 0
}

var (
	client4 = netip.MustParseAddrPort("198.18.0.100:40000")
	server4 = netip.MustParseAddrPort("198.18.1.100:443")
	client6 = netip.MustParseAddrPort("[fd00:5717::100]:40000")
	server6 = netip.MustParseAddrPort("[fd00:5717:0:1::100]:443")
)

func TestParse(t *testing.T) {
	p := parsePacket(udp4(client4, server4, []byte("hello quic"), 2))
	if p.info.Src != client4 || p.info.Dst != server4 || p.info.ECN != netem.ECT0 || p.info.PayloadOffset != 28 || p.info.PayloadLen != 10 {
		t.Fatalf("v4: %+v", p.info)
	}
	p = parsePacket(tcp6(client6, server6, []byte("h2")))
	if p.info.Src != client6 || p.info.Dst != server6 || p.info.PayloadOffset != 60 || p.dst != server6.Addr() {
		t.Fatalf("v6: %+v", p.info)
	}
	if p := parsePacket([]byte{0x45, 0}); p.l4 != 0 || p.info.Size != 2 {
		t.Fatal("a runt must parse as an opaque packet")
	}
}

func TestRewriteKeepsChecksumsValid(t *testing.T) {
	for _, b := range [][]byte{udp4(client4, server4, []byte("0123456789abcdef"), 0), tcp6(client6, server6, []byte("payload!"))} {
		p := parsePacket(b)
		newSrc := netip.AddrPortFrom(p.info.Src.Addr(), 51234)
		if p.v6 {
			newSrc = netip.MustParseAddrPort("[fd00:5717::77]:51234")
		}
		p.apply(netem.Decision{Rewrite: &netem.Rewrite{Src: newSrc, Dst: p.info.Dst}})
		if !checksumsValid(b) {
			t.Fatalf("rewrite broke a checksum (v6=%v)", p.v6)
		}
		if got := parsePacket(b).info.Src; got != newSrc {
			t.Fatalf("source %v, want %v", got, newSrc)
		}
	}
}

func TestCEMarkKeepsChecksumsValid(t *testing.T) {
	b := udp4(client4, server4, []byte("x"), 1)
	p := parsePacket(b)
	p.apply(netem.Decision{MarkCE: true})
	if parsePacket(b).info.ECN != netem.CE || !checksumsValid(b) {
		t.Fatal("CE mark on IPv4")
	}
	b6 := tcp6(client6, server6, []byte("x"))
	b6[1] |= 0x20 // ECT(0)
	p = parsePacket(b6)
	p.apply(netem.Decision{MarkCE: true})
	if parsePacket(b6).info.ECN != netem.CE {
		t.Fatal("CE mark on IPv6")
	}
}

// Corruption must be caught by the receiver's checksum, even combined with a rewrite.
func TestCorruptionIsDetectable(t *testing.T) {
	b := udp4(client4, server4, []byte("0123456789"), 0)
	p := parsePacket(b)
	p.apply(netem.Decision{
		Rewrite: &netem.Rewrite{Src: netip.AddrPortFrom(client4.Addr(), 50000), Dst: server4},
		Corrupt: []netem.ByteFlip{{Offset: p.info.PayloadOffset + 3, Mask: 0x40}},
	})
	if checksumsValid(b) {
		t.Fatal("corrupted packet still has a valid checksum")
	}
}

// udp6 builds an IPv6/UDP packet with a valid checksum.
func udp6(src, dst netip.AddrPort, payload []byte) []byte {
	b := make([]byte, 48+len(payload))
	b[0] = 0x60
	binary.BigEndian.PutUint16(b[4:], uint16(8+len(payload)))
	b[6], b[7] = protoUDP, 64
	s, d := src.Addr().As16(), dst.Addr().As16()
	copy(b[8:], s[:])
	copy(b[24:], d[:])
	binary.BigEndian.PutUint16(b[40:], src.Port())
	binary.BigEndian.PutUint16(b[42:], dst.Port())
	binary.BigEndian.PutUint16(b[44:], uint16(8+len(payload)))
	copy(b[48:], payload)
	p := parsePacket(b)
	p.transportChecksum()
	return b
}

// quicLike returns n bytes that look like a QUIC v1 long-header packet (first byte 0xc3,
// version 1), the rest varying with seed.
func quicLike(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*31 + seed*7 + 1)
	}
	copy(b, []byte{0xc3, 0, 0, 0, 1})
	return b
}

// versionNegotiation returns a QUIC Version Negotiation packet (RFC 8999 6).
func versionNegotiation() []byte {
	b := []byte{0x80 | 0x2a, 0, 0, 0, 0, 8}
	b = append(b, 1, 2, 3, 4, 5, 6, 7, 8, 8) // DCID, SCID length
	b = append(b, 9, 10, 11, 12, 13, 14, 15, 16)
	return append(b, 0, 0, 0, 1, 0x6b, 0x33, 0x43, 0xcf) // v1, v2
}

// diffs returns the offsets at which a and b differ.
func diffs(a, b []byte) []int {
	var out []int
	for i := range a {
		if a[i] != b[i] {
			out = append(out, i)
		}
	}
	return out
}

// corruptThrough runs pkt through a Link that corrupts every packet with p and applies the
// decision; it returns the decision.
func corruptThrough(t *testing.T, l *netem.Link, i int, pkt []byte) netem.Decision {
	t.Helper()
	p := parsePacket(pkt)
	d := l.Process(time.Duration(i)*time.Millisecond, p.info)
	p.apply(d)
	return d
}

func newLink(t *testing.T, p netem.Params) *netem.Link {
	t.Helper()
	l, err := netem.NewLink(netem.ToServer, 1, p)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Deliver mode (upstream corrupt-rate): exactly one byte among the first 50 of the UDP payload
// changes and the checksum is valid again, so the endpoint gets the corrupted datagram.
func TestDeliverModeCorruptionKeepsChecksumValid(t *testing.T) {
	l := newLink(t, netem.Params{Corrupt: 1, CorruptWindow: 50, CorruptDeliver: true})
	positions := map[int]bool{}
	for i := range 400 {
		n := []int{1200, 51, 50, 20, 1}[i%5]
		for _, v6 := range []bool{false, true} {
			orig := udp4(client4, server4, quicLike(n, i), 0)
			if v6 {
				orig = udp6(client6, server6, quicLike(n, i))
			}
			pkt := append([]byte(nil), orig...)
			d := corruptThrough(t, l, i, pkt)
			off := parsePacket(orig).info.PayloadOffset
			diff := diffs(orig, pkt)
			if len(d.Corrupt) != 1 || !d.Corrupt[0].FixChecksum {
				t.Fatalf("v6=%v: decision %+v", v6, d.Corrupt)
			}
			// The payload byte differs; so may the checksum field (UDP header bytes 6-7).
			var payload []int
			for _, o := range diff {
				switch {
				case o >= off:
					payload = append(payload, o-off)
				case o != off-2 && o != off-1:
					t.Fatalf("v6=%v: byte %d outside the payload and the checksum changed", v6, o)
				}
			}
			if len(payload) != 1 || payload[0] >= min(50, n) {
				t.Fatalf("v6=%v, %d-byte payload: payload bytes %v changed, want one in [0,%d)", v6, n, payload, min(50, n))
			}
			if n == 1200 {
				positions[payload[0]] = true
			}
			if !checksumsValid(pkt) {
				t.Fatalf("v6=%v: corrupted packet has an invalid checksum", v6)
			}
		}
	}
	if len(positions) < 40 {
		t.Errorf("flips in 1200-byte payloads hit only %d of the 50 window positions", len(positions))
	}
}

// The default mode is unchanged: the flip can be anywhere in the payload and the checksum is
// left stale, so the receiving kernel drops the packet.
func TestDefaultModeCorruptionInvalidatesChecksum(t *testing.T) {
	l := newLink(t, netem.Params{Corrupt: 1})
	beyond := false
	for i := range 200 {
		for _, orig := range [][]byte{udp4(client4, server4, quicLike(1200, i), 0), udp6(client6, server6, quicLike(1200, i)), tcp6(client6, server6, quicLike(300, i))} {
			pkt := append([]byte(nil), orig...)
			d := corruptThrough(t, l, i, pkt)
			diff := diffs(orig, pkt)
			off := parsePacket(orig).info.PayloadOffset
			if len(d.Corrupt) != 1 || d.Corrupt[0].FixChecksum || len(diff) != 1 || diff[0] < off {
				t.Fatalf("decision %+v changed bytes %v (payload from %d)", d.Corrupt, diff, off)
			}
			beyond = beyond || diff[0]-off >= 50
			if checksumsValid(pkt) {
				t.Fatalf("corrupted packet (byte %d) still has a valid checksum", diff[0])
			}
		}
	}
	if !beyond {
		t.Error("default-mode flips never left the first 50 payload bytes")
	}
}

// Deliver mode also fixes TCP checksums, and a NAT rewrite before the flip does not get in
// the way.
func TestDeliverModeTCPAndRewrite(t *testing.T) {
	orig := tcp6(client6, server6, []byte("some stream bytes, more than enough"))
	pkt := append([]byte(nil), orig...)
	p := parsePacket(pkt)
	p.apply(netem.Decision{Corrupt: []netem.ByteFlip{{Offset: p.info.PayloadOffset + 4, Mask: 0x81, FixChecksum: true}}})
	if !checksumsValid(pkt) || len(diffs(orig[60:], pkt[60:])) != 1 {
		t.Fatalf("TCP/IPv6: valid %v, payload diffs %v", checksumsValid(pkt), diffs(orig[60:], pkt[60:]))
	}
	pkt = udp4(client4, server4, quicLike(100, 3), 0)
	p = parsePacket(pkt)
	p.apply(netem.Decision{
		Rewrite: &netem.Rewrite{Src: netip.AddrPortFrom(client4.Addr(), 50000), Dst: server4},
		Corrupt: []netem.ByteFlip{{Offset: p.info.PayloadOffset + 1, Mask: 0x40, FixChecksum: true}},
	})
	if !checksumsValid(pkt) || pkt[p.info.PayloadOffset+1] != 0x40 {
		t.Fatal("rewrite + deliver-mode flip: invalid checksum or byte not flipped")
	}
}

func TestVersionNegotiationDetected(t *testing.T) {
	for _, c := range []struct {
		name string
		pkt  []byte
		want bool
	}{
		{"VN over IPv4", udp4(client4, server4, versionNegotiation(), 0), true},
		{"VN over IPv6", udp6(client6, server6, versionNegotiation()), true},
		{"v1 Initial", udp4(client4, server4, quicLike(1200, 0), 0), false},
		{"short header with zero DCID bytes", udp4(client4, server4, []byte{0x43, 0, 0, 0, 0, 9, 9}, 0), false},
		{"too short", udp4(client4, server4, []byte{0x80, 0, 0, 0}, 0), false},
		{"TCP", tcp6(client6, server6, versionNegotiation()), false},
	} {
		if got := parsePacket(c.pkt).info.VersionNegotiation; got != c.want {
			t.Errorf("%s: VersionNegotiation %v, want %v", c.name, got, c.want)
		}
	}
}

// Upstream never corrupts Version Negotiation packets; deliver mode follows it. The default
// mode corrupts them like anything else (and the checksum turns that into loss).
func TestVersionNegotiationNeverCorruptedInDeliverMode(t *testing.T) {
	deliver := newLink(t, netem.Params{Corrupt: 1, CorruptWindow: 50, CorruptDeliver: true})
	plain := newLink(t, netem.Params{Corrupt: 1, CorruptWindow: 50})
	for i := range 100 {
		for _, orig := range [][]byte{udp4(server4, client4, versionNegotiation(), 0), udp6(server6, client6, versionNegotiation())} {
			pkt := append([]byte(nil), orig...)
			if d := corruptThrough(t, deliver, i, pkt); len(d.Corrupt) != 0 || len(diffs(orig, pkt)) != 0 {
				t.Fatalf("deliver mode corrupted a Version Negotiation packet: %+v", d.Corrupt)
			}
			pkt = append([]byte(nil), orig...)
			if d := corruptThrough(t, plain, i, pkt); len(d.Corrupt) != 1 || len(diffs(orig, pkt)) != 1 {
				t.Fatalf("default mode spared a Version Negotiation packet: %+v", d.Corrupt)
			}
		}
	}
}
