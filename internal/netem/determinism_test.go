package netem

import (
	"net/netip"
	"testing"
	"time"
)

// busy enables every impairment at once.
func busy() Params {
	return Params{
		Delay: 20 * ms, Jitter: 5 * ms, JitterDist: Normal,
		Loss: 0.02, GE: &GilbertElliott{P: 0.01, R: 0.3, H: 0.1, K: 0.99},
		Droplist: []int{3, 7}, Corrupt: 0.03, Duplicate: 0.02,
		Reorder: Reorder{Probability: 0.05, Gap: 2},
		Rate:    20_000_000, Queue: Depth{Packets: 30}, CEThreshold: Depth{Packets: 10},
		Blackhole: Blackhole{On: 700 * ms, Off: 50 * ms, Repeat: 2},
	}
}

var (
	client = netip.MustParseAddrPort("193.167.0.100:50000")
	server = netip.MustParseAddrPort("193.167.100.100:443")
)

// run drives an Emulator with a fixed, bursty two-way packet sequence.
func run(t testing.TB, seed uint64, p Params, n int) []Decision {
	e := newEmu(t, Config{Seed: seed, Schedule: Static("busy", both(p)), Rebind: Rebind{First: 300 * ms, Freq: 400 * ms, Port: true}})
	ds := make([]Decision, 0, n)
	ext := client
	for i := range n {
		now := time.Duration(i/4) * 500 * time.Microsecond // bursts of 4
		pkt := udp(200 + (i*37)%1200)
		pkt.ECN = ECN(i % 4)
		if i%3 == 0 { // ack-like traffic to the client
			pkt.Src, pkt.Dst = server, ext
			ds = append(ds, e.Process(now, ToClient, pkt))
			continue
		}
		pkt.Src, pkt.Dst = client, server
		d := e.Process(now, ToServer, pkt)
		if d.Rewrite != nil {
			ext = d.Rewrite.Src
		}
		ds = append(ds, d)
	}
	return ds
}

func TestSameSeedSameDecisions(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1 << 63} {
		ok(t, sameDecisions(run(t, seed, busy(), 6000), run(t, seed, busy(), 6000)))
	}
}

func TestDifferentSeedDifferentDecisions(t *testing.T) {
	ok(t, differentDecisions(run(t, 1, busy(), 6000), run(t, 2, busy(), 6000)))
}

// TestStreamsIndependent: adding impairments must not move the random-loss
// drops, nor adding loss the corruption choices, since each has its own stream.
func TestStreamsIndependent(t *testing.T) {
	lossOnly := Params{Loss: 0.05}
	everything := busy()
	everything.Droplist, everything.Blackhole, everything.Rate = nil, Blackhole{}, 0 // other drop causes would mask loss
	everything.Loss = lossOnly.Loss
	lossSeqs := func(p Params) []int {
		var seqs []int
		for _, d := range feed(newLink(t, ToServer, 9, p), 5000, 0, ms, 1000) {
			if d.Cause == DropLoss {
				seqs = append(seqs, d.Seq)
			}
		}
		return seqs
	}
	a, b := lossSeqs(lossOnly), lossSeqs(everything)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("loss drops %d alone vs %d with everything", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("loss drop %d moved from seq %d to %d", i, a[i], b[i])
		}
	}

	corruptSeqs := func(p Params) map[int]ByteFlip {
		m := map[int]ByteFlip{}
		for _, d := range feed(newLink(t, ToServer, 9, p), 5000, 0, ms, 1000) {
			if len(d.Corrupt) > 0 {
				m[d.Seq] = d.Corrupt[0]
			}
		}
		return m
	}
	alone, withLoss := corruptSeqs(Params{Corrupt: 0.1}), corruptSeqs(Params{Corrupt: 0.1, Loss: 0.3})
	for seq, f := range withLoss {
		if alone[seq] != f {
			t.Fatalf("seq %d corrupted as %+v with loss, %+v without", seq, f, alone[seq])
		}
	}
	if len(withLoss) == 0 || len(withLoss) >= len(alone) {
		t.Fatalf("corrupted %d with loss vs %d without: loss should only hide some", len(withLoss), len(alone))
	}
}

func TestDirectionsUseDifferentStreams(t *testing.T) {
	p := Params{Loss: 0.1}
	ok(t, differentDecisions(feed(newLink(t, ToServer, 5, p), 2000, 0, ms, 500), feed(newLink(t, ToClient, 5, p), 2000, 0, ms, 500)))
}

func TestSubstreamsDistinct(t *testing.T) {
	seen := map[uint64]string{}
	for _, dir := range Directions {
		st := newStreams(1, dir)
		for name, r := range map[string]interface{ Uint64() uint64 }{
			"loss": st.loss, "ge": st.ge, "corrupt": st.corrupt, "duplicate": st.duplicate, "reorder": st.reorder, "jitter": st.jitter,
		} {
			v := r.Uint64()
			if other, dup := seen[v]; dup {
				t.Errorf("%v %s starts like %s", dir, name, other)
			}
			seen[v] = dir.String() + " " + name
		}
	}
	if substream(1, "a", "bc").Uint64() == substream(1, "ab", "c").Uint64() {
		t.Error("name boundaries do not separate streams")
	}
}

// TestCorruptModesDeterministic: the upstream-style mode (window + deliver) is
// as reproducible as the default, picks the same packets (the window and the
// mode change only where and how a packet is corrupted), and loss still only
// hides some of its choices without moving any.
func TestCorruptModesDeterministic(t *testing.T) {
	up := busy()
	up.CorruptWindow, up.CorruptDeliver = 50, true
	a, b := run(t, 7, up, 6000), run(t, 7, up, 6000)
	ok(t, sameDecisions(a, b))
	n := 0
	for _, d := range a {
		for _, f := range d.Corrupt {
			n++
			if !f.FixChecksum || f.Offset < 28 || f.Offset >= 28+50 {
				t.Fatalf("seq %d: %+v, want a checksum-fixed flip in payload bytes [0,50) (offsets 28..77)", d.Seq, f)
			}
		}
	}
	if n == 0 {
		t.Fatal("nothing corrupted")
	}
	ok(t, differentDecisions(a, run(t, 8, up, 6000)))

	flips := func(p Params) map[int]ByteFlip {
		m := map[int]ByteFlip{}
		for _, d := range feed(newLink(t, ToServer, 9, p), 5000, 0, ms, 1000) {
			if len(d.Corrupt) > 0 {
				m[d.Seq] = d.Corrupt[0]
			}
		}
		return m
	}
	whole := flips(Params{Corrupt: 0.1})
	windowed := flips(Params{Corrupt: 0.1, CorruptWindow: 50, CorruptDeliver: true})
	if len(whole) != len(windowed) {
		t.Fatalf("corrupted %d packets with the whole payload, %d with a window", len(whole), len(windowed))
	}
	moved := 0
	for seq, f := range whole {
		g, sel := windowed[seq]
		if !sel {
			t.Fatalf("seq %d corrupted with the whole payload only", seq)
		}
		if f.Offset != g.Offset {
			moved++
		}
	}
	if moved == 0 {
		t.Error("the window moved no flip: it has no effect")
	}
	withLoss := flips(Params{Corrupt: 0.1, CorruptWindow: 50, CorruptDeliver: true, Loss: 0.3})
	for seq, f := range withLoss {
		if windowed[seq] != f {
			t.Fatalf("seq %d corrupted as %+v with loss, %+v without", seq, f, windowed[seq])
		}
	}
	if len(withLoss) == 0 || len(withLoss) >= len(windowed) {
		t.Fatalf("corrupted %d with loss vs %d without: loss should only hide some", len(withLoss), len(windowed))
	}
}
