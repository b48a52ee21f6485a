package main

import (
	"encoding/binary"
	"net/netip"
	"testing"

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
