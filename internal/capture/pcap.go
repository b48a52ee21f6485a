package capture

import (
	"encoding/binary"
	"fmt"
	"io"
	"time"
)

// PcapReader reads a classic pcap file (what the sim writes) record by record.
type PcapReader struct {
	r     io.Reader
	order binary.ByteOrder
	nanos bool
	Link  uint32 // the link type (1 Ethernet, 101 raw IP, 113 Linux cooked)
	n     int
	buf   []byte
}

// Record is one captured packet; Data (the captured bytes) is valid until the next Next.
type Record struct {
	Time    time.Time
	OrigLen int // the packet's length on the wire (the sim may keep only TCP headers)
	Data    []byte
}

// maxCapLen bounds a record's captured length: anything larger is not a pcap record.
const maxCapLen = 1 << 18

// NewPcapReader reads the file header.
func NewPcapReader(r io.Reader) (*PcapReader, error) {
	var hdr [24]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("pcap header: %w", err)
	}
	p := &PcapReader{r: r}
	switch m := binary.LittleEndian.Uint32(hdr[:4]); m {
	case 0xa1b2c3d4, 0xa1b23c4d:
		p.order, p.nanos = binary.LittleEndian, m == 0xa1b23c4d
	case 0xd4c3b2a1, 0x4d3cb2a1:
		p.order, p.nanos = binary.BigEndian, m == 0x4d3cb2a1
	default:
		return nil, fmt.Errorf("not a pcap file (magic %#x; classic pcap only)", m)
	}
	p.Link = p.order.Uint32(hdr[20:]) & 0x0fffffff
	return p, nil
}

// Next returns the next record, io.EOF after the last; a file that ends inside a record is an
// error naming the record.
func (p *PcapReader) Next() (Record, error) {
	var rec [16]byte
	p.n++
	if n, err := io.ReadFull(p.r, rec[:]); err == io.EOF {
		return Record{}, io.EOF
	} else if err != nil {
		return Record{}, fmt.Errorf("pcap record %d: header cut after %d bytes", p.n, n)
	}
	caplen := p.order.Uint32(rec[8:])
	if caplen > maxCapLen {
		return Record{}, fmt.Errorf("pcap record %d: captured length %d is not plausible", p.n, caplen)
	}
	if cap(p.buf) < int(caplen) {
		p.buf = make([]byte, caplen, max(int(caplen), 65536))
	}
	p.buf = p.buf[:caplen]
	if n, err := io.ReadFull(p.r, p.buf); err != nil {
		return Record{}, fmt.Errorf("pcap record %d: %d of %d bytes", p.n, n, caplen)
	}
	sub := int64(p.order.Uint32(rec[4:]))
	if !p.nanos {
		sub *= 1000
	}
	return Record{Time: time.Unix(int64(p.order.Uint32(rec[0:])), sub), OrigLen: int(p.order.Uint32(rec[12:])), Data: p.buf}, nil
}

// IPPacket strips the link-layer header: the IP packet, or nil for other link types/protocols.
func (p *PcapReader) IPPacket(data []byte) []byte {
	var etherType uint16
	switch p.Link {
	case 101: // LINKTYPE_RAW
		return data
	case 1: // Ethernet
		if len(data) < 14 {
			return nil
		}
		etherType, data = binary.BigEndian.Uint16(data[12:]), data[14:]
	case 113: // Linux cooked capture
		if len(data) < 16 {
			return nil
		}
		etherType, data = binary.BigEndian.Uint16(data[14:]), data[16:]
	default:
		return nil
	}
	if etherType != 0x0800 && etherType != 0x86dd {
		return nil
	}
	return data
}

// Transport is what an IP packet's header says about its transport: protocol (6 TCP, 17 UDP),
// addresses (4 or 16 bytes) and ports, and the transport header and payload. IPv6 extension
// headers are not followed; the sim's traces have none.
type Transport struct {
	Proto            byte
	Src, Dst         []byte
	SrcPort, DstPort uint16
	Segment          []byte // the UDP datagram or TCP segment, header included
}

// ParseTransport reads ip's header; ok is false for anything but UDP or TCP over IPv4 or IPv6.
func ParseTransport(ip []byte) (t Transport, ok bool) {
	if len(ip) < 1 {
		return t, false
	}
	switch ip[0] >> 4 {
	case 4:
		ihl := int(ip[0]&0x0f) * 4
		if ihl < 20 || len(ip) < ihl+4 {
			return t, false
		}
		t.Proto, t.Src, t.Dst, t.Segment = ip[9], ip[12:16], ip[16:20], ip[ihl:]
	case 6:
		if len(ip) < 44 {
			return t, false
		}
		t.Proto, t.Src, t.Dst, t.Segment = ip[6], ip[8:24], ip[24:40], ip[40:]
	default:
		return t, false
	}
	if t.Proto != 6 && t.Proto != 17 {
		return t, false
	}
	t.SrcPort, t.DstPort = binary.BigEndian.Uint16(t.Segment), binary.BigEndian.Uint16(t.Segment[2:])
	return t, true
}
