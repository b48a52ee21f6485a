package main

import (
	"encoding/binary"
	"net/netip"

	"github.com/wirelab/wirelab/internal/netem"
)

// IP protocol numbers the sim looks inside.
const (
	protoTCP = 6
	protoUDP = 17
)

// packet is a parsed view of one IP packet read from a TUN device.
type packet struct {
	buf     []byte
	v6      bool
	proto   uint8
	l4      int // offset of the UDP/TCP header; 0 when there is none (fragment, other protocol)
	payload int // offset of the transport payload
	dst     netip.Addr
	info    netem.PacketInfo
}

// parsePacket reads the fields the engine needs. It never fails: a packet it cannot look inside
// is still forwarded (and impaired by size), just without ports or a payload to corrupt.
func parsePacket(buf []byte) packet {
	p := packet{buf: buf}
	p.info.Size = len(buf)
	if len(buf) < 20 {
		return p
	}
	var src, dst netip.Addr
	switch buf[0] >> 4 {
	case 4:
		ihl := int(buf[0]&0x0f) * 4
		if ihl < 20 || len(buf) < ihl {
			return p
		}
		p.info.ECN = netem.ECN(buf[1] & 3)
		p.proto = buf[9]
		src, dst = netip.AddrFrom4([4]byte(buf[12:16])), netip.AddrFrom4([4]byte(buf[16:20]))
		if binary.BigEndian.Uint16(buf[6:8])&0x3fff == 0 { // not a fragment
			p.l4 = ihl
		}
	case 6:
		if len(buf) < 40 {
			return p
		}
		p.v6 = true
		p.info.ECN = netem.ECN((binary.BigEndian.Uint16(buf[0:2]) >> 4) & 3)
		src, dst = netip.AddrFrom16([16]byte(buf[8:24])), netip.AddrFrom16([16]byte(buf[24:40]))
		p.proto, p.l4 = skipIPv6Extensions(buf)
	default:
		return p
	}
	p.dst = dst
	if p.l4 == 0 {
		return p
	}
	switch {
	case p.proto == protoUDP && len(buf) >= p.l4+8:
		p.payload = p.l4 + 8
	case p.proto == protoTCP && len(buf) >= p.l4+20 && len(buf) >= p.l4+int(buf[p.l4+12]>>4)*4:
		p.payload = p.l4 + int(buf[p.l4+12]>>4)*4
	default:
		p.l4 = 0
		return p
	}
	p.info.Src = netip.AddrPortFrom(src, binary.BigEndian.Uint16(buf[p.l4:]))
	p.info.Dst = netip.AddrPortFrom(dst, binary.BigEndian.Uint16(buf[p.l4+2:]))
	p.info.PayloadOffset, p.info.PayloadLen = p.payload, len(buf)-p.payload
	p.info.VersionNegotiation = p.proto == protoUDP && isVersionNegotiation(buf[p.payload:])
	return p
}

// isVersionNegotiation reports whether a UDP payload is a QUIC Version Negotiation packet
// (RFC 8999 6: long header form, version 0). Deliver-mode corruption leaves those intact.
func isVersionNegotiation(b []byte) bool {
	return len(b) >= 5 && b[0]&0x80 != 0 && b[1]|b[2]|b[3]|b[4] == 0
}

// skipIPv6Extensions walks hop-by-hop, routing, fragment and destination-options headers.
// It returns the upper-layer protocol and its offset, or offset 0 for a non-first fragment.
func skipIPv6Extensions(buf []byte) (uint8, int) {
	next, off := buf[6], 40
	for {
		switch next {
		case 0, 43, 60: // hop-by-hop, routing, destination options
			if len(buf) < off+2 {
				return next, 0
			}
			next, off = buf[off], off+8+int(buf[off+1])*8
		case 44: // fragment
			if len(buf) < off+8 {
				return next, 0
			}
			if binary.BigEndian.Uint16(buf[off+2:])&0xfff8 != 0 {
				return buf[off], 0
			}
			next, off = buf[off], off+8
		default:
			return next, off
		}
	}
}

// apply carries out a decision on the packet bytes. Order matters: rewrites and CE marks come
// with fixed checksums, corruption comes last. By default it is left for the receiver's
// checksum to catch (the kernel drops the packet); a flip with FixChecksum (the profile's
// corrupt_deliver, as upstream's corrupt-rate) gets the UDP/TCP checksum recomputed over the
// corrupted segment, so the endpoint receives the packet and its QUIC stack must reject it.
// It reports whether it left the transport checksum stale (the packet must reach the receiver
// as it is, never in a GSO batch whose checksums the kernel computes).
func (p *packet) apply(d netem.Decision) (stale bool) {
	if d.Rewrite != nil && p.l4 != 0 {
		p.setEndpoints(d.Rewrite.Src, d.Rewrite.Dst)
	}
	if d.MarkCE {
		p.markCE()
	}
	flipped, fix := false, false
	for _, f := range d.Corrupt {
		if f.Offset >= 0 && f.Offset < len(p.buf) {
			p.buf[f.Offset] ^= f.Mask
			flipped, fix = true, fix || f.FixChecksum
		}
	}
	if fix && p.l4 != 0 {
		p.transportChecksum()
		return false
	}
	return flipped
}

func (p *packet) setEndpoints(src, dst netip.AddrPort) {
	b := p.buf
	if p.v6 {
		a, c := src.Addr().As16(), dst.Addr().As16()
		copy(b[8:24], a[:])
		copy(b[24:40], c[:])
	} else {
		a, c := src.Addr().As4(), dst.Addr().As4()
		copy(b[12:16], a[:])
		copy(b[16:20], c[:])
		ipv4HeaderChecksum(b)
	}
	binary.BigEndian.PutUint16(b[p.l4:], src.Port())
	binary.BigEndian.PutUint16(b[p.l4+2:], dst.Port())
	p.info.Src, p.info.Dst = src, dst
	p.transportChecksum()
}

func (p *packet) markCE() {
	if p.v6 {
		p.buf[1] |= 0x30 // the ECN bits straddle bytes 0 and 1 of the IPv6 header
		return
	}
	p.buf[1] |= 0x03
	ipv4HeaderChecksum(p.buf)
}

// transportChecksum recomputes the UDP/TCP checksum over the pseudo-header and segment.
func (p *packet) transportChecksum() {
	if p.proto == protoUDP && !p.v6 && binary.BigEndian.Uint16(p.buf[p.l4+6:]) == 0 {
		return // IPv4 UDP without checksum stays without one
	}
	fullChecksum(p.buf, p.l4, p.proto, p.v6)
}

func ipv4HeaderChecksum(b []byte) {
	ihl := int(b[0]&0x0f) * 4
	b[10], b[11] = 0, 0
	binary.BigEndian.PutUint16(b[10:], fold(sum16(b[:ihl], 0)))
}

// sum16 adds b to a one's-complement sum as 16-bit big-endian words, eight bytes at a time:
// 32-bit words summed in 64 bits fold to the same 16-bit sum (2^16 = 1 modulo 0xffff).
func sum16(b []byte, sum uint32) uint32 {
	acc := uint64(sum)
	for len(b) >= 8 {
		v := binary.BigEndian.Uint64(b)
		acc += v>>32 + v&0xffffffff
		b = b[8:]
	}
	for len(b) >= 2 {
		acc += uint64(b[0])<<8 | uint64(b[1])
		b = b[2:]
	}
	if len(b) == 1 {
		acc += uint64(b[0]) << 8
	}
	for acc > 0xffff { // folded to 16 bits, so callers can add small terms without overflow
		acc = acc>>16 + acc&0xffff
	}
	return uint32(acc)
}

func fold(sum uint32) uint16 {
	for sum > 0xffff {
		sum = sum>>16 + sum&0xffff
	}
	return ^uint16(sum)
}
