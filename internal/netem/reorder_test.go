package netem

import "testing"

func TestReorderOvertakesExactlyGap(t *testing.T) {
	for _, gap := range []int{1, 3, 7} {
		p := Params{Delay: 50 * ms, Reorder: Reorder{Probability: 1, Gap: gap}}
		l := newLink(t, ToClient, 1, p)
		ds := feed(l, 200, 0, ms, 1000)
		ok(t, reorderGap(ds, gap))
		// With probability 1 the pattern is exact: gap in-order packets,
		// then one that overtakes them.
		for _, d := range ds {
			if want := d.Seq%(gap+1) == 0; d.Reordered != want {
				t.Fatalf("gap %d: seq %d reordered=%v, want %v", gap, d.Seq, d.Reordered, want)
			}
		}
		// In-order packets stay in order among themselves.
		var inOrder []Decision
		for _, d := range ds {
			if !d.Reordered {
				inOrder = append(inOrder, d)
			}
		}
		ok(t, noReorder(inOrder))
		if got := l.Stats().Reordered; got != uint64(200/(gap+1)) {
			t.Errorf("gap %d: stats reordered %d", gap, got)
		}
	}
}

func TestReorderBoundedByFlight(t *testing.T) {
	// Packets 20 ms apart on a 5 ms link: nothing is in flight to overtake,
	// so nothing is reordered, however eager the probability.
	l := newLink(t, ToServer, 1, Params{Delay: 5 * ms, Reorder: Reorder{Probability: 1, Gap: 2}})
	ds := feed(l, 100, 0, 20*ms, 1000)
	ok(t, reorderGap(ds, 2))
	if n := l.Stats().Reordered; n != 0 {
		t.Errorf("reordered %d with nothing in flight", n)
	}
	// Partly in flight: gap 5 but only ~2 packets in flight; the packet
	// cannot leave before its own departure, so it overtakes fewer.
	l = newLink(t, ToServer, 1, Params{Delay: 5 * ms, Reorder: Reorder{Probability: 1, Gap: 5}})
	ds = feed(l, 60, 0, 2*ms, 1000)
	for i, d := range ds {
		if d.Reordered && (overtaken(ds, i) == 0 || overtaken(ds, i) >= 5) {
			t.Errorf("seq %d overtook %d", d.Seq, overtaken(ds, i))
		}
		if d.Reordered && d.ReleaseAt < ms*2*timeIndex(i) {
			t.Errorf("seq %d released before it arrived", d.Seq)
		}
	}
}

func TestReorderProbability(t *testing.T) {
	// Gap 1: after a reordering the next packet is always in order, so the
	// reordered share is P/(1+P).
	const n, prob = 20_000, 0.25
	l := newLink(t, ToServer, 6, Params{Delay: 50 * ms, Reorder: Reorder{Probability: prob, Gap: 1}})
	feed(l, n, 0, ms, 500)
	ok(t, inCI("reorder share", int(l.Stats().Reordered), n, prob/(1+prob)))
}
