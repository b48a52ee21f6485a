package main

import (
	"bytes"
	"encoding/binary"
)

// Releasing packets is one write(2) and one trip through the kernel's forwarding path each; on a
// 2-vCPU machine that, not the engine, bounds the sim's packet rate. On an offloading device the
// writer hands the kernel runs of packets due together as one GSO batch instead — the inverse of
// splitVnet, as a NIC's GRO would merge them: packets of one flow, back to back, whose headers
// the kernel's segmentation reproduces exactly (same addresses, ports, TTL, traffic class, IPv4
// IDs counting up, contiguous TCP sequence numbers, identical TCP options), all of one payload
// size but the last. The kernel computes each segment's checksum, so a packet whose checksum the
// engine left stale on purpose (default-mode corruption) never joins a batch (forwarder.go
// batchRun). The receiver gets exactly the wire packets the pcap shows.

const maxCoalesce = 64 // segments per batch (the kernel accepts up to 64 KB either way)

// gsoHead is what coalescing needs to know of a packet.
type gsoHead struct {
	ok      bool
	v6      bool
	proto   uint8
	l4, hdr int // offsets of the transport header and the payload
}

// headOf returns the coalescing view of an IP packet: TCP or UDP directly after an IPv4 header
// without options (not a fragment) or a bare IPv6 header, with a payload.
func headOf(b []byte) gsoHead {
	if len(b) < 20 {
		return gsoHead{}
	}
	h := gsoHead{}
	switch b[0] >> 4 {
	case 4:
		if b[0]&0x0f != 5 || binary.BigEndian.Uint16(b[6:])&0x3fff != 0 || int(binary.BigEndian.Uint16(b[2:])) != len(b) {
			return gsoHead{}
		}
		h.proto, h.l4 = b[9], 20
	case 6:
		if len(b) < 40 || int(binary.BigEndian.Uint16(b[4:]))+40 != len(b) {
			return gsoHead{}
		}
		h.v6, h.proto, h.l4 = true, b[6], 40
	default:
		return gsoHead{}
	}
	switch {
	case h.proto == protoUDP && len(b) > h.l4+8:
		if !h.v6 && binary.BigEndian.Uint16(b[h.l4+6:]) == 0 {
			return gsoHead{} // IPv4 UDP without a checksum: the kernel's segmentation would add one
		}
		h.hdr = h.l4 + 8
	case h.proto == protoTCP && len(b) >= h.l4+20:
		h.hdr = h.l4 + int(b[h.l4+12]>>4)*4
		if h.hdr < h.l4+20 || h.hdr >= len(b) || b[h.l4+13]&tcpNoCoalesce != 0 {
			return gsoHead{}
		}
	default:
		return gsoHead{}
	}
	h.ok = true
	return h
}

// TCP flags the kernel's segmentation would not reproduce on every segment: FIN, SYN, RST,
// URG, CWR. (PSH is allowed on the last packet of a run only.)
const (
	tcpNoCoalesce = 0x01 | 0x02 | 0x04 | 0x20 | 0x80
	tcpPSH        = 0x08
)

// runLength returns how many packets from pkts[0] on form one GSO batch (at least 1).
func runLength(pkts [][]byte) int {
	first := pkts[0]
	h := headOf(first)
	if !h.ok {
		return 1
	}
	size := len(first) - h.hdr
	total := len(first)
	n := 1
	for n < len(pkts) && n < maxCoalesce {
		prev, next := pkts[n-1], pkts[n]
		if len(prev)-h.hdr != size || (h.proto == protoTCP && prev[h.l4+13]&tcpPSH != 0) {
			break // only the last may be short or carry PSH
		}
		nh := headOf(next)
		if !nh.ok || nh.hdr != h.hdr || nh.proto != h.proto || nh.v6 != h.v6 || len(next)-h.hdr > size || total+len(next)-h.hdr > 65535 {
			break
		}
		if !sameIPHeader(first, next, h, n) || !sameTransportHeader(first, prev, next, h, size) {
			break
		}
		total += len(next) - h.hdr
		n++
	}
	return n
}

// sameIPHeader: everything but the lengths and checksum equal, IPv4 IDs counting up.
func sameIPHeader(first, next []byte, h gsoHead, n int) bool {
	if h.v6 {
		return bytes.Equal(first[0:4], next[0:4]) && bytes.Equal(first[6:40], next[6:40])
	}
	id := binary.BigEndian.Uint16(first[4:]) + uint16(n)
	return bytes.Equal(first[0:2], next[0:2]) && binary.BigEndian.Uint16(next[4:]) == id &&
		bytes.Equal(first[6:10], next[6:10]) && bytes.Equal(first[12:20], next[12:20])
}

// sameTransportHeader: UDP ports equal; TCP everything but the sequence number, PSH and the
// checksum equal, and the sequence number continuing the previous packet's payload.
func sameTransportHeader(first, prev, next []byte, h gsoHead, size int) bool {
	a, b := first[h.l4:h.hdr], next[h.l4:h.hdr]
	if h.proto == protoUDP {
		return bytes.Equal(a[0:4], b[0:4])
	}
	seq := binary.BigEndian.Uint32(prev[h.l4+4:]) + uint32(size)
	return bytes.Equal(a[0:4], b[0:4]) && binary.BigEndian.Uint32(b[4:]) == seq &&
		bytes.Equal(a[8:13], b[8:13]) && a[13] == b[13]&^tcpPSH &&
		bytes.Equal(a[14:16], b[14:16]) && bytes.Equal(a[18:], b[18:])
}

// coalesce builds the GSO batch of pkts (a run from runLength, more than one packet) into buf:
// the first packet's headers with the whole length, the payloads back to back, the transport
// checksum field holding the pseudo-header sum as the kernel's segmentation expects it
// (CHECKSUM_PARTIAL), and the virtio_net_hdr describing it into vh.
func coalesce(pkts [][]byte, buf []byte, vh []byte) []byte {
	first := pkts[0]
	h := headOf(first)
	out := append(buf[:0], first[:h.hdr]...)
	for _, p := range pkts {
		out = append(out, p[h.hdr:]...)
	}
	last := pkts[len(pkts)-1]
	l4len := len(out) - h.l4
	gso := vnetHdr{flags: vnetFlagNeedsCsum, hdrLen: uint16(h.hdr), gsoSize: uint16(len(first) - h.hdr), csumStart: uint16(h.l4)}
	if h.v6 {
		binary.BigEndian.PutUint16(out[4:], uint16(l4len))
	} else {
		binary.BigEndian.PutUint16(out[2:], uint16(len(out)))
		ipv4HeaderChecksum(out)
	}
	sum := pseudoHeaderSum(out, h.proto, h.v6, l4len)
	if h.proto == protoUDP {
		gso.gsoType, gso.csumOffset = gsoUDPL4, 6
		binary.BigEndian.PutUint16(out[h.l4+4:], uint16(l4len))
	} else {
		gso.gsoType, gso.csumOffset = gsoTCPv4, 16
		if h.v6 {
			gso.gsoType = gsoTCPv6
		}
		out[h.l4+13] = last[h.l4+13] // PSH from the last packet
	}
	binary.BigEndian.PutUint16(out[h.l4+int(gso.csumOffset):], ^fold(sum))
	gso.put(vh)
	return out
}
