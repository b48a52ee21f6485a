package netem

import "testing"

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
