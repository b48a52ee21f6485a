package quictrace

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"time"
)

// GoodputFromPcap is the measurement of upstream's goodput and crosstraffic cases: the payload
// bytes the client asked for over the time from the server's first to its last 1-RTT packet (so
// handshake and teardown do not count). It reads a classic pcap file without tshark: the server's
// short-header packets are recognised by header form 0 (the fixed bit may be greased) in UDP
// datagrams from ServerPort or PreferredAddressPort. A measurement cell's tshark pass then
// prints only the handshake datagrams (LongHeaderFilter): printing every 1-RTT datagram of a
// 25 MiB transfer was 20 of its 23 s. Link types: Ethernet, Linux cooked (SLL) and raw IP.
func GoodputFromPcap(path string, payloadBytes int64) (kbps float64, span time.Duration, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	first, last, err := serverShortHeaderSpan(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	span = last.Sub(first)
	if first.IsZero() || span <= 0 {
		return 0, 0, fmt.Errorf("goodput: the server sent no 1-RTT packets over a measurable time in %s", path)
	}
	return float64(8*payloadBytes) / span.Seconds() / 1000, span, nil
}

// serverShortHeaderSpan returns the times of the first and last server short-header datagram.
func serverShortHeaderSpan(r io.Reader) (first, last time.Time, err error) {
	var hdr [24]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return first, last, fmt.Errorf("pcap header: %w", err)
	}
	var bo binary.ByteOrder
	nanos := false
	switch m := binary.LittleEndian.Uint32(hdr[:4]); m {
	case 0xa1b2c3d4, 0xa1b23c4d:
		bo, nanos = binary.LittleEndian, m == 0xa1b23c4d
	case 0xd4c3b2a1, 0x4d3cb2a1:
		bo, nanos = binary.BigEndian, m == 0x4d3cb2a1
	default:
		return first, last, fmt.Errorf("not a classic pcap file (magic %#x)", m)
	}
	link := bo.Uint32(hdr[20:]) & 0x0fffffff
	var rec [16]byte
	buf := make([]byte, 0, 65536)
	for n := 1; ; n++ {
		if _, err := io.ReadFull(r, rec[:]); err == io.EOF {
			return first, last, nil
		} else if err != nil {
			return first, last, fmt.Errorf("pcap record %d: %w", n, err)
		}
		caplen := bo.Uint32(rec[8:])
		if caplen > 1<<18 {
			return first, last, fmt.Errorf("pcap record %d: captured length %d is not plausible", n, caplen)
		}
		buf = buf[:caplen]
		if _, err := io.ReadFull(r, buf); err != nil {
			return first, last, fmt.Errorf("pcap record %d: %w", n, err)
		}
		if !serverShortHeader(ipPayload(link, buf)) {
			continue
		}
		sub := int64(bo.Uint32(rec[4:]))
		if !nanos {
			sub *= 1000
		}
		t := time.Unix(int64(bo.Uint32(rec[0:])), sub)
		if first.IsZero() {
			first = t
		}
		last = t
	}
}

// ipPayload strips the link-layer header: the IP packet, or nil for other link types/protocols.
func ipPayload(link uint32, b []byte) []byte {
	var etherType uint16
	switch link {
	case 101: // LINKTYPE_RAW
		return b
	case 1: // Ethernet
		if len(b) < 14 {
			return nil
		}
		etherType, b = binary.BigEndian.Uint16(b[12:]), b[14:]
	case 113: // Linux cooked capture
		if len(b) < 16 {
			return nil
		}
		etherType, b = binary.BigEndian.Uint16(b[14:]), b[16:]
	default:
		return nil
	}
	if etherType != 0x0800 && etherType != 0x86dd {
		return nil
	}
	return b
}

// serverShortHeader reports whether ip is a UDP datagram from the server's port that carries a
// short-header packet: first, or after coalesced long-header packets (RFC 9000 §12.2). IPv6
// extension headers are not followed; the sim's traces have none.
func serverShortHeader(ip []byte) bool {
	if len(ip) < 1 {
		return false
	}
	var udp []byte
	switch ip[0] >> 4 {
	case 4:
		ihl := int(ip[0]&0x0f) * 4
		if len(ip) < ihl+8 || ip[9] != 17 {
			return false
		}
		udp = ip[ihl:]
	case 6:
		if len(ip) < 48 || ip[6] != 17 {
			return false
		}
		udp = ip[40:]
	default:
		return false
	}
	src := binary.BigEndian.Uint16(udp)
	if (src != ServerPort && src != PreferredAddressPort) || len(udp) < 9 {
		return false
	}
	return hasShortHeader(udp[8:])
}

// hasShortHeader walks a datagram's coalesced packets: long headers (Initial, 0-RTT, Handshake
// in v1 and v2 alike carry a Length) are skipped, the first short header answers true.
func hasShortHeader(q []byte) bool {
	for len(q) > 0 {
		if q[0]&0x80 == 0 {
			return true // the fixed bit may be greased (RFC 9287; ngtcp2 does)
		}
		if len(q) < 7 {
			return false
		}
		typ := longPacketType(uint64(q[0]>>4), binary.BigEndian.Uint32(q[1:]))
		if typ == TypeVersionNegotiation || typ == TypeRetry {
			return false // no Length field, never coalesced
		}
		i := 5
		for k := 0; k < 2; k++ { // DCID, then SCID
			if i >= len(q) {
				return false
			}
			i += 1 + int(q[i])
		}
		if i >= len(q) {
			return false
		}
		if typ == TypeInitial { // Token Length and Token
			tl, n := varint(q[i:])
			if n == 0 {
				return false
			}
			i += n + int(tl)
		}
		if i >= len(q) {
			return false
		}
		l, n := varint(q[i:])
		if n == 0 || l > uint64(len(q)) { // garbage
			return false
		}
		i += n + int(l)
		if i > len(q) {
			return false
		}
		q = q[i:]
	}
	return false
}
