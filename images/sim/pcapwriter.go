package main

import (
	"bufio"
	"encoding/binary"
	"os"
	"sync"
	"time"
)

// pcapWriter records one side of the engine, as upstream's trace_node_left/right do: the packets
// as they arrive from that side (before the engine) and as the engine releases them towards it
// (after it). Packets are written as the engine sees them: whole IP packets, segmented by the
// kernel (a GSO batch an endpoint sends shows as the packets on the wire, which tshark can
// decrypt), so the link type is LINKTYPE_RAW. Buffered; flushed every second and at exit.
type pcapWriter struct {
	mu sync.Mutex
	f  *os.File
	w  *bufio.Writer
}

const linktypeRaw = 101 // raw IPv4/IPv6

func newPcapWriter(path string) (*pcapWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	hdr := make([]byte, 24)
	binary.LittleEndian.PutUint32(hdr[0:], 0xa1b23c4d) // nanosecond timestamps
	binary.LittleEndian.PutUint16(hdr[4:], 2)
	binary.LittleEndian.PutUint16(hdr[6:], 4)
	binary.LittleEndian.PutUint32(hdr[16:], 65535)
	binary.LittleEndian.PutUint32(hdr[20:], linktypeRaw)
	if _, err := w.Write(hdr); err != nil {
		f.Close()
		return nil, err
	}
	return &pcapWriter{f: f, w: w}, nil
}

// write records one packet seen at t. A nil writer records nothing (capture off).
func (p *pcapWriter) write(t time.Time, pkt []byte) {
	if p == nil {
		return
	}
	var rec [16]byte
	ns := t.UnixNano()
	binary.LittleEndian.PutUint32(rec[0:], uint32(ns/1e9))
	binary.LittleEndian.PutUint32(rec[4:], uint32(ns%1e9))
	binary.LittleEndian.PutUint32(rec[8:], uint32(len(pkt)))
	binary.LittleEndian.PutUint32(rec[12:], uint32(len(pkt)))
	p.mu.Lock()
	_, _ = p.w.Write(rec[:])
	_, _ = p.w.Write(pkt)
	p.mu.Unlock()
}

func (p *pcapWriter) flush() {
	if p == nil {
		return
	}
	p.mu.Lock()
	_ = p.w.Flush()
	p.mu.Unlock()
}

func (p *pcapWriter) close() {
	if p == nil {
		return
	}
	p.flush()
	_ = p.f.Close()
}
