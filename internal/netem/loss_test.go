package netem

import "testing"

func TestRandomLossRate(t *testing.T) {
	const n = 10_000
	lost := func(seed uint64, loss float64) int {
		return countDrops(feed(newLink(t, ToClient, seed, Params{Loss: loss}), n, 0, ms, 1200), DropLoss)
	}
	for _, seed := range []uint64{1, 2, 3} {
		zero, five := lost(seed, 0), lost(seed, 0.05)
		if zero != 0 {
			t.Errorf("seed %d: 0%% loss dropped %d", seed, zero)
		}
		ok(t, inCI("5% loss", five, n, 0.05))
		ok(t, ciDisjoint(zero, n, five, n))
	}
	if got := lost(1, 1); got != n {
		t.Errorf("100%% loss dropped %d of %d", got, n)
	}
}

func TestLossIsMonotoneInProbability(t *testing.T) {
	// Same seed: the packets lost at 5% are a subset of those lost at 10%,
	// because one uniform sample per packet is compared to the threshold.
	l5 := feed(newLink(t, ToServer, 7, Params{Loss: 0.05}), 5000, 0, ms, 1000)
	l10 := feed(newLink(t, ToServer, 7, Params{Loss: 0.10}), 5000, 0, ms, 1000)
	for i := range l5 {
		if l5[i].Drop && !l10[i].Drop {
			t.Fatalf("seq %d lost at 5%% but not at 10%%", l5[i].Seq)
		}
	}
}
