package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TCP packets keep only their headers in the traces; UDP (QUIC) packets stay whole.
func TestPcapKeepsTCPHeadersOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.pcap")
	p, err := newPcapWriter(path)
	if err != nil {
		t.Fatal(err)
	}
	tcp := make([]byte, 1500)
	tcp[0], tcp[9] = 0x45, 6
	udp := make([]byte, 1500)
	udp[0], udp[9] = 0x45, 17
	p.write(time.Now(), tcp)
	p.write(time.Now(), udp)
	p.close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := data[24:] // after the file header
	incl, orig := binary.LittleEndian.Uint32(rec[8:]), binary.LittleEndian.Uint32(rec[12:])
	if incl != tcpSnap || orig != 1500 {
		t.Fatalf("tcp record: incl %d orig %d", incl, orig)
	}
	rec = rec[16+incl:]
	if incl, orig := binary.LittleEndian.Uint32(rec[8:]), binary.LittleEndian.Uint32(rec[12:]); incl != 1500 || orig != 1500 {
		t.Fatalf("udp record: incl %d orig %d", incl, orig)
	}
}
