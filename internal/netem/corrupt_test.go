package netem

import (
	"fmt"
	"strings"
	"testing"
)

func TestCorruptionStaysInPayload(t *testing.T) {
	l := newLink(t, ToServer, 3, Params{Corrupt: 1})
	var pkts []PacketInfo
	var ds []Decision
	for i := range 5000 {
		// IPv4 or IPv6, UDP or TCP, varying sizes (payload 1..1400 bytes).
		hdr := []int{28, 48, 40, 60}[i%4]
		p := PacketInfo{Size: hdr + 1 + i%1400, PayloadOffset: hdr, PayloadLen: 1 + i%1400}
		pkts = append(pkts, p)
		ds = append(ds, l.Process(ms*timeIndex(i), p))
	}
	ok(t, flipsInPayload(pkts, ds))
	seen := map[int]bool{}
	for i, d := range ds {
		if len(d.Corrupt) != 1 {
			t.Fatalf("seq %d: %d flips at 100%% corruption", d.Seq, len(d.Corrupt))
		}
		seen[d.Corrupt[0].Offset-pkts[i].PayloadOffset] = true
	}
	if !seen[0] || len(seen) < 1000 {
		t.Errorf("offsets cover %d distinct positions; want the whole payload range", len(seen))
	}
}

func TestCorruptionRate(t *testing.T) {
	const n = 10_000
	l := newLink(t, ToClient, 3, Params{Corrupt: 0.03})
	ds := feed(l, n, 0, ms, 1200)
	ok(t, inCI("corrupt", int(l.Stats().Corrupted), n, 0.03))
	ok(t, statsAddUp(l.Stats(), ds))
}

func TestNoCorruptionWithoutPayload(t *testing.T) {
	l := newLink(t, ToClient, 3, Params{Corrupt: 1})
	for _, p := range []PacketInfo{
		{Size: 28, PayloadOffset: 28, PayloadLen: 0},   // empty datagram
		{Size: 100, PayloadOffset: 28, PayloadLen: 80}, // claims more than the packet
		{Size: 100, PayloadOffset: -1, PayloadLen: 10}, // nonsense offset
	} {
		if d := l.Process(0, p); len(d.Corrupt) != 0 {
			t.Errorf("%+v corrupted at %+v", p, d.Corrupt)
		}
	}
	if l.Stats().Corrupted != 0 {
		t.Error("counted corruption that did not happen")
	}
}

// windowed feeds n packets with payloads of 1..1400 bytes (IPv4/IPv6, UDP/TCP
// header sizes) through a Link with p and returns them with their decisions.
func windowed(t *testing.T, seed uint64, p Params, n int) ([]PacketInfo, []Decision) {
	t.Helper()
	l := newLink(t, ToServer, seed, p)
	pkts := make([]PacketInfo, n)
	ds := make([]Decision, n)
	for i := range n {
		hdr := []int{28, 48, 40, 60}[i%4]
		plen := 1 + (i*7)%1400
		pkts[i] = PacketInfo{Size: hdr + plen, PayloadOffset: hdr, PayloadLen: plen}
		ds[i] = l.Process(ms*timeIndex(i), pkts[i])
	}
	ok(t, statsAddUp(l.Stats(), ds))
	return pkts, ds
}

// flipsInWindow fails when a flip lies outside the first w payload bytes.
func flipsInWindow(pkts []PacketInfo, ds []Decision, w int) error {
	for i, d := range ds {
		for _, f := range d.Corrupt {
			if rel := f.Offset - pkts[i].PayloadOffset; rel < 0 || rel >= min(w, pkts[i].PayloadLen) {
				return fmt.Errorf("seq %d: flip at payload byte %d, window %d, payload %d", d.Seq, rel, w, pkts[i].PayloadLen)
			}
		}
	}
	return nil
}

func TestCorruptWindow(t *testing.T) {
	const w = 50
	pkts, ds := windowed(t, 11, Params{Corrupt: 1, CorruptWindow: w}, 20_000)
	ok(t, flipsInPayload(pkts, ds))
	ok(t, flipsInWindow(pkts, ds, w))
	// Every position of the window is used, for long payloads and for ones
	// shorter than the window, and roughly uniformly: the first half of a
	// full window gets half of the flips.
	long, short := map[int]int{}, map[int]bool{}
	full, firstHalf := 0, 0
	for i, d := range ds {
		if len(d.Corrupt) != 1 {
			t.Fatalf("seq %d: %d flips at 100%% corruption", d.Seq, len(d.Corrupt))
		}
		if d.Corrupt[0].FixChecksum {
			t.Fatalf("seq %d: checksum fix asked without CorruptDeliver", d.Seq)
		}
		rel := d.Corrupt[0].Offset - pkts[i].PayloadOffset
		switch n := pkts[i].PayloadLen; {
		case n >= w:
			long[rel]++
			full++
			if rel < w/2 {
				firstHalf++
			}
		case n == 8:
			short[rel] = true
		}
	}
	if len(long) != w {
		t.Errorf("long payloads: flips at %d distinct positions, want all %d", len(long), w)
	}
	ok(t, inCI("first half of the window", firstHalf, full, 0.5))
	for pos, k := range long {
		ok(t, inCI(fmt.Sprintf("position %d", pos), k, full, 1.0/w))
	}
	if len(short) != 8 {
		t.Errorf("8-byte payloads: flips at %d distinct positions, want all 8", len(short))
	}
	// The window check is not vacuous: without a window flips land beyond it.
	pkts, ds = windowed(t, 11, Params{Corrupt: 1}, 2000)
	if flipsInWindow(pkts, ds, w) == nil {
		t.Error("whole-payload corruption stayed in the first 50 bytes")
	}
}

func TestCorruptDeliverAsksForChecksumFix(t *testing.T) {
	for _, deliver := range []bool{false, true} {
		pkts, ds := windowed(t, 5, Params{Corrupt: 0.5, CorruptDeliver: deliver}, 4000)
		ok(t, flipsInPayload(pkts, ds))
		n := 0
		for _, d := range ds {
			for _, f := range d.Corrupt {
				n++
				if f.FixChecksum != deliver {
					t.Fatalf("deliver=%v: seq %d FixChecksum %v", deliver, d.Seq, f.FixChecksum)
				}
			}
		}
		ok(t, inCI(fmt.Sprintf("deliver=%v corruption", deliver), n, len(ds), 0.5))
	}
}

// In deliver mode a QUIC Version Negotiation packet is never corrupted, and
// skipping it does not change which other packets are selected. The default
// mode corrupts it like any other packet (its checksum then drops it).
func TestVersionNegotiationNotCorruptedInDeliverMode(t *testing.T) {
	pkt := func(i int) PacketInfo {
		p := udp(200 + i%1000)
		p.VersionNegotiation = i%3 == 0
		return p
	}
	selected := func(p Params) (corrupted map[int]bool, vn int) {
		l := newLink(t, ToClient, 8, p)
		corrupted = map[int]bool{}
		for i := range 6000 {
			d := l.Process(ms*timeIndex(i), pkt(i))
			if len(d.Corrupt) > 0 {
				corrupted[i] = true
				if pkt(i).VersionNegotiation {
					vn++
				}
			}
		}
		if int(l.Stats().Corrupted) != len(corrupted) {
			t.Errorf("%+v: stats count %d corrupted, decisions %d", p, l.Stats().Corrupted, len(corrupted))
		}
		return corrupted, vn
	}
	deliver, vnDeliver := selected(Params{Corrupt: 0.2, CorruptWindow: 50, CorruptDeliver: true})
	plain, vnPlain := selected(Params{Corrupt: 0.2, CorruptWindow: 50})
	if vnDeliver != 0 {
		t.Errorf("deliver mode corrupted %d Version Negotiation packets", vnDeliver)
	}
	if vnPlain == 0 {
		t.Error("default mode spared Version Negotiation packets")
	}
	for i := range plain {
		if !pkt(i).VersionNegotiation && !deliver[i] {
			t.Fatalf("packet %d corrupted in default mode but not in deliver mode", i)
		}
	}
	if len(deliver) != len(plain)-vnPlain {
		t.Errorf("deliver mode corrupted %d, default %d of which %d VN", len(deliver), len(plain), vnPlain)
	}
}

func TestCorruptWindowValidation(t *testing.T) {
	err := Params{CorruptWindow: -1}.Validate()
	if err == nil || err.Error() != "negative corrupt window -1" {
		t.Errorf("got %v", err)
	}
	if _, err := NewLink(ToClient, 1, Params{Corrupt: 0.1, CorruptWindow: -5}); err == nil || !strings.Contains(err.Error(), "corrupt window") {
		t.Errorf("NewLink accepted a negative window: %v", err)
	}
	if err := (Params{Corrupt: 1, CorruptWindow: 50, CorruptDeliver: true}).Validate(); err != nil {
		t.Error(err)
	}
}
