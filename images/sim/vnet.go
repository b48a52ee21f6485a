package main

import (
	"encoding/binary"
	"fmt"
)

// With offloads on (SIM_OFFLOAD, the default) the TUN devices carry a virtio_net_hdr before every
// packet and accept TCP and UDP segmentation offload: the kernel hands the engine whole GSO
// batches (a TCP stack's 64 KB send, a QUIC stack's UDP_SEGMENT batch, datagrams GRO merged on
// the sim's interfaces) in one read instead of segmenting them in software and queueing each
// segment. The engine still decides per wire packet: splitVnet cuts a batch into the segments
// the kernel would have sent, with complete checksums, so pcaps, corruption and the rate limit
// see exactly what they saw without offloads.

// virtio_net_hdr (include/uapi/linux/virtio_net.h), little-endian on every Linux TUN we run on.
const (
	vnetHdrLen = 10

	vnetFlagNeedsCsum = 1

	gsoNone  = 0
	gsoTCPv4 = 1
	gsoTCPv6 = 4
	gsoUDPL4 = 5
	gsoECN   = 0x80
)

type vnetHdr struct {
	flags      uint8
	gsoType    uint8
	hdrLen     uint16
	gsoSize    uint16
	csumStart  uint16
	csumOffset uint16
}

func parseVnetHdr(b []byte) vnetHdr {
	return vnetHdr{
		flags: b[0], gsoType: b[1],
		hdrLen:    binary.LittleEndian.Uint16(b[2:]),
		gsoSize:   binary.LittleEndian.Uint16(b[4:]),
		csumStart: binary.LittleEndian.Uint16(b[6:]), csumOffset: binary.LittleEndian.Uint16(b[8:]),
	}
}

func (h vnetHdr) put(b []byte) {
	b[0], b[1] = h.flags, h.gsoType
	binary.LittleEndian.PutUint16(b[2:], h.hdrLen)
	binary.LittleEndian.PutUint16(b[4:], h.gsoSize)
	binary.LittleEndian.PutUint16(b[6:], h.csumStart)
	binary.LittleEndian.PutUint16(b[8:], h.csumOffset)
}

// splitVnet turns what one read from an offloading TUN returned (header + packet) into wire
// packets with complete checksums, each in its own buffer taken from alloc.
func splitVnet(b []byte, alloc func(n int) []byte) ([][]byte, error) {
	if len(b) < vnetHdrLen {
		return nil, fmt.Errorf("short read (%d bytes) without a virtio_net_hdr", len(b))
	}
	h, pkt := parseVnetHdr(b), b[vnetHdrLen:]
	if h.gsoType&^gsoECN == gsoNone {
		out := alloc(len(pkt))
		copy(out, pkt)
		if h.flags&vnetFlagNeedsCsum != 0 {
			if err := completeChecksum(out, int(h.csumStart), int(h.csumOffset)); err != nil {
				return nil, err
			}
		}
		return [][]byte{out}, nil
	}
	return segment(pkt, h, alloc)
}

// completeChecksum finishes a CHECKSUM_PARTIAL packet: the field holds the pseudo-header sum,
// the checksum covers everything from csumStart on.
func completeChecksum(p []byte, start, off int) error {
	if start+off+2 > len(p) {
		return fmt.Errorf("checksum at %d+%d outside a %d-byte packet", start, off, len(p))
	}
	c := fold(sum16(p[start:], 0))
	if c == 0 && off == 6 { // UDP: a computed zero is sent as all ones (RFC 768)
		c = 0xffff
	}
	binary.BigEndian.PutUint16(p[start+off:], c)
	return nil
}

// segment cuts a TCP (TSO) or UDP (USO) batch into gsoSize payloads, as the kernel's own
// segmentation does: IPv4 IDs counting up, TCP sequence numbers advanced, FIN and PSH only on
// the last segment and CWR only on the first, every length and checksum rewritten.
func segment(pkt []byte, h vnetHdr, alloc func(n int) []byte) ([][]byte, error) {
	if len(pkt) < 20 || h.gsoSize == 0 {
		return nil, fmt.Errorf("GSO packet of %d bytes with segment size %d", len(pkt), h.gsoSize)
	}
	v6 := pkt[0]>>4 == 6
	l4 := int(h.csumStart)
	proto := uint8(protoUDP)
	l4Len := 8
	switch h.gsoType &^ gsoECN {
	case gsoTCPv4, gsoTCPv6:
		proto = protoTCP
		if len(pkt) < l4+20 {
			return nil, fmt.Errorf("TSO packet too short for its TCP header")
		}
		l4Len = int(pkt[l4+12]>>4) * 4
	case gsoUDPL4:
	default:
		return nil, fmt.Errorf("unsupported GSO type %d", h.gsoType)
	}
	hdr := l4 + l4Len
	if hdr > len(pkt) || l4 < 20 {
		return nil, fmt.Errorf("GSO headers (%d bytes) outside a %d-byte packet", hdr, len(pkt))
	}
	payload := pkt[hdr:]
	size := int(h.gsoSize)
	n := (len(payload) + size - 1) / size
	segs := make([][]byte, 0, n)
	var id uint16
	if !v6 {
		id = binary.BigEndian.Uint16(pkt[4:])
	}
	var seq uint32
	if proto == protoTCP {
		seq = binary.BigEndian.Uint32(pkt[l4+4:])
	}
	for i := 0; i < n; i++ {
		chunk := payload[i*size : min((i+1)*size, len(payload))]
		s := alloc(hdr + len(chunk))
		copy(s, pkt[:hdr])
		copy(s[hdr:], chunk)
		if v6 {
			binary.BigEndian.PutUint16(s[4:], uint16(len(s)-40))
		} else {
			binary.BigEndian.PutUint16(s[2:], uint16(len(s)))
			binary.BigEndian.PutUint16(s[4:], id+uint16(i))
			ipv4HeaderChecksum(s)
		}
		if proto == protoTCP {
			binary.BigEndian.PutUint32(s[l4+4:], seq+uint32(i*size))
			if i != n-1 {
				s[l4+13] &^= 0x09 // FIN, PSH
			}
			if i != 0 {
				s[l4+13] &^= 0x80 // CWR
			}
		} else {
			binary.BigEndian.PutUint16(s[l4+4:], uint16(len(s)-l4))
		}
		fullChecksum(s, l4, proto, v6)
		segs = append(segs, s)
	}
	return segs, nil
}

// fullChecksum computes a UDP/TCP checksum from scratch over the pseudo-header and segment.
func fullChecksum(b []byte, l4 int, proto uint8, v6 bool) {
	seg := b[l4:]
	csumOff := 16
	if proto == protoUDP {
		csumOff = 6
	}
	seg[csumOff], seg[csumOff+1] = 0, 0
	c := fold(sum16(seg, pseudoHeaderSum(b, proto, v6, len(seg))))
	if c == 0 && proto == protoUDP {
		c = 0xffff
	}
	binary.BigEndian.PutUint16(seg[csumOff:], c)
}

// pseudoHeaderSum is the one's-complement sum of the UDP/TCP pseudo-header (RFC 768, RFC 8200
// §8.1) of the IP packet b for a transport segment of l4len bytes.
func pseudoHeaderSum(b []byte, proto uint8, v6 bool, l4len int) uint32 {
	var sum uint32
	if v6 {
		sum = sum16(b[8:40], 0)
	} else {
		sum = sum16(b[12:20], 0)
	}
	return sum + uint32(proto) + uint32(l4len)
}
