package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/capture"
)

// TCP packets keep only their headers in the traces; UDP (QUIC) packets stay whole.
func TestPcapKeepsTCPHeadersOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.pcap")
	p, err := newPcapWriter(path, defaultTCPSnap)
	if err != nil {
		t.Fatal(err)
	}
	tcp := make([]byte, 1500)
	tcp[0], tcp[9] = 0x45, 6
	udp := make([]byte, 1500)
	udp[0], udp[9] = 0x45, 17
	p.write(time.Now(), tcp)
	p.write(time.Now(), udp)
	if _, err := p.close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := data[24:] // after the file header
	incl, orig := binary.LittleEndian.Uint32(rec[8:]), binary.LittleEndian.Uint32(rec[12:])
	if incl != defaultTCPSnap || orig != 1500 {
		t.Fatalf("tcp record: incl %d orig %d", incl, orig)
	}
	rec = rec[16+incl:]
	if incl, orig := binary.LittleEndian.Uint32(rec[8:]), binary.LittleEndian.Uint32(rec[12:]); incl != 1500 || orig != 1500 {
		t.Fatalf("udp record: incl %d orig %d", incl, orig)
	}
}

// Every packet handed to the writer before close is in the file and in its seal: the trace a
// check reads after the sim stops ends with the last packet the sim forwarded.
func TestSealCountsEveryPacketUpToClose(t *testing.T) {
	dir := t.TempDir()
	var traces [2]*pcapWriter
	for i, n := range traceNames {
		var err error
		if traces[i], err = newPcapWriter(filepath.Join(dir, n), defaultTCPSnap); err != nil {
			t.Fatal(err)
		}
	}
	udp := make([]byte, 1200)
	udp[0], udp[9] = 0x45, 17
	for i := 0; i < 5000; i++ { // more than bufio's 1 MiB buffer holds: some is flushed, some queued
		traces[sideServer].write(time.Now(), udp)
	}
	traces[sideClient].write(time.Now(), udp)
	if err := capture.Verify(dir); err == nil {
		t.Fatal("traces verified before the sim sealed them")
	}
	if err := sealTraces(dir, traces); err != nil {
		t.Fatal(err)
	}
	if err := capture.Verify(dir); err != nil {
		t.Fatal(err)
	}
	got, err := capture.Count(filepath.Join(dir, traceNames[sideServer]))
	if err != nil || got.Records != 5000 {
		t.Fatalf("server-side trace: %+v %v, want 5000 records", got, err)
	}
}

// SIM_TCP_SNAP=0 (the h2 suite: HTTP/2 runs over TCP) keeps TCP packets whole.
func TestPcapKeepsWholeTCPWhenAsked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.pcap")
	p, err := newPcapWriter(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	tcp := make([]byte, 1500)
	tcp[0], tcp[9] = 0x45, 6
	p.write(time.Now(), tcp)
	if _, err := p.close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if incl := binary.LittleEndian.Uint32(data[24+8:]); incl != 1500 {
		t.Fatalf("tcp record kept %d of 1500 bytes", incl)
	}
}
