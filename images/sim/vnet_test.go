package main

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func alloc(n int) []byte { return make([]byte, n) }

// flowPackets builds n wire packets of one flow as a sender's kernel would: IPv4 IDs counting up,
// TCP sequence numbers contiguous, PSH on the last, complete checksums.
func flowPackets(t *testing.T, proto uint8, v6 bool, n, size, lastSize int) [][]byte {
	t.Helper()
	var out [][]byte
	seq := uint32(1000)
	for i := 0; i < n; i++ {
		pay := size
		if i == n-1 {
			pay = lastSize
		}
		l4len := 8
		if proto == protoTCP {
			l4len = 32 // with a timestamp option
		}
		ipLen := 20
		if v6 {
			ipLen = 40
		}
		b := make([]byte, ipLen+l4len+pay)
		if v6 {
			b[0] = 0x60
			binary.BigEndian.PutUint16(b[4:], uint16(len(b)-40))
			b[6], b[7] = proto, 64
			b[23], b[39] = 1, 2
		} else {
			b[0] = 0x45
			binary.BigEndian.PutUint16(b[2:], uint16(len(b)))
			binary.BigEndian.PutUint16(b[4:], 0xfffe+uint16(i)) // wraps
			b[6], b[8], b[9] = 0x40, 64, proto
			copy(b[12:], []byte{198, 18, 0, 100, 198, 18, 1, 100})
			ipv4HeaderChecksum(b)
		}
		l4 := ipLen
		binary.BigEndian.PutUint16(b[l4:], 443)
		binary.BigEndian.PutUint16(b[l4+2:], 5555)
		if proto == protoTCP {
			binary.BigEndian.PutUint32(b[l4+4:], seq)
			binary.BigEndian.PutUint32(b[l4+8:], 77)
			b[l4+12], b[l4+13] = 8<<4, 0x10
			if i == n-1 {
				b[l4+13] |= tcpPSH
			}
			binary.BigEndian.PutUint16(b[l4+14:], 500)
			copy(b[l4+20:], []byte{1, 1, 8, 10, 0, 0, 0, 9, 0, 0, 0, 7})
		} else {
			binary.BigEndian.PutUint16(b[l4+4:], uint16(len(b)-l4))
		}
		for j := range pay {
			b[l4+l4len+j] = byte(i*7 + j)
		}
		fullChecksum(b, l4, proto, v6)
		seq += uint32(pay)
		out = append(out, b)
	}
	return out
}

// TestCoalesceThenSplitIsIdentity: a run coalesced into one GSO batch and cut again the way the
// kernel's segmentation does gives back the very packets, byte for byte, checksums included.
func TestCoalesceThenSplitIsIdentity(t *testing.T) {
	for _, c := range []struct {
		name  string
		proto uint8
		v6    bool
	}{{"udp4", protoUDP, false}, {"udp6", protoUDP, true}, {"tcp4", protoTCP, false}, {"tcp6", protoTCP, true}} {
		t.Run(c.name, func(t *testing.T) {
			pkts := flowPackets(t, c.proto, c.v6, 5, 1200, 333)
			if n := runLength(pkts); n != 5 {
				t.Fatalf("runLength = %d, want 5", n)
			}
			vh := make([]byte, vnetHdrLen)
			batch := coalesce(pkts, nil, vh)
			segs, err := splitVnet(append(vh, batch...), alloc)
			if err != nil {
				t.Fatal(err)
			}
			if len(segs) != len(pkts) {
				t.Fatalf("%d segments, want %d", len(segs), len(pkts))
			}
			for i := range pkts {
				if !bytes.Equal(segs[i], pkts[i]) {
					t.Fatalf("segment %d differs:\n got %x\nwant %x", i, segs[i], pkts[i])
				}
			}
		})
	}
}

// TestRunLengthStops: what the kernel's segmentation could not reproduce ends a run.
func TestRunLengthStops(t *testing.T) {
	cases := []struct {
		name  string
		proto uint8
		spoil func(p [][]byte)
		want  int
	}{
		{"gap in TCP sequence", protoTCP, func(p [][]byte) { binary.BigEndian.PutUint32(p[2][24:], 1) }, 2},
		{"other port", protoUDP, func(p [][]byte) { p[3][21] ^= 1 }, 3},
		{"short packet not last", protoUDP, nil, 0},
		{"IPv4 ID not counting up", protoUDP, func(p [][]byte) { p[1][5] ^= 1 }, 1},
		{"other TTL", protoUDP, func(p [][]byte) { p[2][8] = 63 }, 2},
		{"FIN", protoTCP, func(p [][]byte) { p[1][33] |= 0x01 }, 1},
		{"other TCP timestamp", protoTCP, func(p [][]byte) { p[4][47] = 1 }, 4},
		{"IPv4 UDP without a checksum", protoUDP, func(p [][]byte) { p[2][26], p[2][27] = 0, 0 }, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pkts := flowPackets(t, c.proto, false, 5, 1200, 1200)
			want := c.want
			if c.spoil == nil { // a short packet in the middle: the run ends with it
				pkts = append(flowPackets(t, c.proto, false, 2, 1200, 600), pkts...)
				want = 2
			} else {
				c.spoil(pkts)
			}
			if n := runLength(pkts); n != want {
				t.Fatalf("runLength = %d, want %d", n, want)
			}
		})
	}
}

// TestSplitCompletesPartialChecksum: a CHECKSUM_PARTIAL packet (the field holding the
// pseudo-header sum) comes out with the checksum a full computation gives.
func TestSplitCompletesPartialChecksum(t *testing.T) {
	pkt := flowPackets(t, protoUDP, false, 1, 100, 100)[0]
	want := append([]byte(nil), pkt...)
	sum := pseudoHeaderSum(pkt, protoUDP, false, len(pkt)-20)
	binary.BigEndian.PutUint16(pkt[26:], ^fold(sum))
	vh := make([]byte, vnetHdrLen)
	vnetHdr{flags: vnetFlagNeedsCsum, csumStart: 20, csumOffset: 6}.put(vh)
	segs, err := splitVnet(append(vh, pkt...), alloc)
	if err != nil || len(segs) != 1 || !bytes.Equal(segs[0], want) {
		t.Fatalf("got %x, %v; want %x", segs, err, want)
	}
}

func TestSplitRejectsBadBatches(t *testing.T) {
	pkt := flowPackets(t, protoTCP, false, 1, 100, 100)[0]
	for name, h := range map[string]vnetHdr{
		"no segment size":      {gsoType: gsoTCPv4, csumStart: 20, flags: vnetFlagNeedsCsum},
		"unknown GSO type":     {gsoType: 2, gsoSize: 10, csumStart: 20},
		"headers past the end": {gsoType: gsoTCPv4, gsoSize: 10, csumStart: 200},
	} {
		vh := make([]byte, vnetHdrLen)
		h.put(vh)
		if _, err := splitVnet(append(vh, pkt...), alloc); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := splitVnet([]byte{1, 2}, alloc); err == nil {
		t.Error("short read accepted")
	}
}

// TestSum16MatchesBytewise: the eight-bytes-at-a-time sum equals the plain word-by-word one.
func TestSum16MatchesBytewise(t *testing.T) {
	for n := 0; n < 70; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(0xff - i*13)
		}
		var want uint32 = 0xfff0
		for i := 0; i+1 < n; i += 2 {
			want += uint32(b[i])<<8 | uint32(b[i+1])
		}
		if n%2 == 1 {
			want += uint32(b[n-1]) << 8
		}
		if got := fold(sum16(b, 0xfff0)); got != fold(want) {
			t.Fatalf("n=%d: %04x, want %04x", n, got, fold(want))
		}
	}
}
