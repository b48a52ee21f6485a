package quictrace

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/wirelab/wirelab/internal/capture"
	"github.com/wirelab/wirelab/internal/quicvarint"
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
	pr, err := capture.NewPcapReader(r)
	if err != nil {
		return first, last, err
	}
	for {
		rec, err := pr.Next()
		if err == io.EOF {
			return first, last, nil
		} else if err != nil {
			return first, last, err
		}
		if !serverShortHeader(pr.IPPacket(rec.Data)) {
			continue
		}
		if first.IsZero() {
			first = rec.Time
		}
		last = rec.Time
	}
}

// serverShortHeader reports whether ip is a UDP datagram from the server's port that carries a
// short-header packet: first, or after coalesced long-header packets (RFC 9000 §12.2).
func serverShortHeader(ip []byte) bool {
	t, ok := capture.ParseTransport(ip)
	if !ok || t.Proto != 17 || (t.SrcPort != ServerPort && t.SrcPort != PreferredAddressPort) || len(t.Segment) < 9 {
		return false
	}
	return hasShortHeader(t.Segment[8:])
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
			tl, n := quicvarint.Read(q[i:])
			if n == 0 {
				return false
			}
			i += n + int(tl)
		}
		if i >= len(q) {
			return false
		}
		l, n := quicvarint.Read(q[i:])
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
