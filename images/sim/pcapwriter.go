package main

import (
	"bufio"
	"encoding/binary"
	"os"
	"sync"
	"time"

	"github.com/wirelab/wirelab/internal/capture"
)

// pcapWriter records one side of the engine, as upstream's trace_node_left/right do: the packets
// as they arrive from that side (before the engine) and as the engine releases them towards it
// (after it). Packets are written as the engine sees them: whole IP packets, segmented by the
// kernel (a GSO batch an endpoint sends shows as the packets on the wire, which tshark can
// decrypt), so the link type is LINKTYPE_RAW. The engine's threads only timestamp a packet and
// queue it; a goroutine of its own writes the file (a disk write on a release thread showed up
// as milliseconds of added delay). Flushed every second; at exit it is closed and sealed (capture.json), and only a sealed trace
// is evidence (internal/capture).
type pcapWriter struct {
	mu   sync.Mutex // guards w
	f    *os.File
	w    *bufio.Writer
	ch   chan pcapRecord
	done chan struct{}

	tcpSnap int // bytes kept of a TCP packet; 0: whole

	closing sync.RWMutex // write holds it shared, close exclusively: no send after close
	closed  bool

	sealed capture.FileSeal // what the file holds once closed (under mu): capture.json's entry
}

type pcapRecord struct {
	t   time.Time
	pkt []byte
}

const linktypeRaw = 101 // raw IPv4/IPv6

// newPcapWriter writes path, keeping tcpSnap bytes of each TCP packet (0: all of it).
func newPcapWriter(path string, tcpSnap int) (*pcapWriter, error) {
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
	p := &pcapWriter{f: f, w: w, tcpSnap: tcpSnap, ch: make(chan pcapRecord, 1<<16), done: make(chan struct{}), sealed: capture.FileSeal{Bytes: 24}}
	go p.loop()
	return p, nil
}

// write queues one packet seen at t; pkt must not change afterwards. A nil writer records
// nothing (capture off). It blocks only if the disk falls 65536 packets behind: a capture
// that silently lost packets would be worse evidence than a slower run.
func (p *pcapWriter) write(t time.Time, pkt []byte) {
	if p == nil {
		return
	}
	p.closing.RLock()
	defer p.closing.RUnlock()
	if !p.closed {
		p.ch <- pcapRecord{t, pkt}
	}
}

func (p *pcapWriter) loop() {
	defer close(p.done)
	for r := range p.ch {
		p.append(r.t, r.pkt)
	}
}

// defaultTCPSnap is how much of a TCP packet the traces keep by default: its headers. The QUIC
// checks read UDP only, and a competing TCP flow (crosstraffic) would otherwise make traces of
// hundreds of MB. Suites whose protocol runs over TCP (h2) keep it whole (SIM_TCP_SNAP=0).
const defaultTCPSnap = 128

func (p *pcapWriter) append(t time.Time, pkt []byte) {
	var rec [16]byte
	ns := t.UnixNano()
	kept := pkt
	if p.tcpSnap > 0 && isTCP(pkt) && len(pkt) > p.tcpSnap {
		kept = pkt[:p.tcpSnap]
	}
	binary.LittleEndian.PutUint32(rec[0:], uint32(ns/1e9))
	binary.LittleEndian.PutUint32(rec[4:], uint32(ns%1e9))
	binary.LittleEndian.PutUint32(rec[8:], uint32(len(kept)))
	binary.LittleEndian.PutUint32(rec[12:], uint32(len(pkt)))
	p.mu.Lock()
	_, _ = p.w.Write(rec[:])
	_, _ = p.w.Write(kept)
	p.sealed.Records++
	p.sealed.Bytes += int64(16 + len(kept))
	p.mu.Unlock()
}

// isTCP reports whether a raw IPv4/IPv6 packet carries TCP (no IPv6 extension headers in the lab).
func isTCP(pkt []byte) bool {
	switch {
	case len(pkt) >= 20 && pkt[0]>>4 == 4:
		return pkt[9] == 6
	case len(pkt) >= 40 && pkt[0]>>4 == 6:
		return pkt[6] == 6
	}
	return false
}

func (p *pcapWriter) flush() {
	if p == nil {
		return
	}
	p.mu.Lock()
	_ = p.w.Flush()
	p.mu.Unlock()
}

// close writes what is queued, closes the file and returns what it holds (for the seal).
// Writers must have stopped.
func (p *pcapWriter) close() (capture.FileSeal, error) {
	p.closing.Lock()
	p.closed = true
	close(p.ch)
	p.closing.Unlock()
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.w.Flush(); err != nil {
		p.f.Close()
		return p.sealed, err
	}
	return p.sealed, p.f.Close()
}
