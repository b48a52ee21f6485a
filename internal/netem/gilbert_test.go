package netem

import (
	"math"
	"testing"
)

func TestGEFromBurstMapping(t *testing.T) {
	g, err := GEFromBurst(0.10, 3)
	if err != nil {
		t.Fatal(err)
	}
	ok(t, near("R", g.R, 1.0/3, 1e-12))
	ok(t, near("P", g.P, 0.1/3/0.9, 1e-12))
	if g.H != 0 || g.K != 1 {
		t.Errorf("h,k = %v,%v want 0,1", g.H, g.K)
	}
	ok(t, near("stationary loss", g.LossRate(), 0.10, 1e-12))

	for _, bad := range [][2]float64{{1, 3}, {-0.1, 3}, {0.1, 0.5}, {0.1, math.NaN()}} {
		if _, err := GEFromBurst(bad[0], bad[1]); err == nil {
			t.Errorf("GEFromBurst(%v, %v) accepted", bad[0], bad[1])
		}
	}
}

func TestGEBurstStatistics(t *testing.T) {
	const n = 200_000
	for _, c := range []struct{ loss, burst float64 }{{0.05, 4}, {0.02, 2}, {0.10, 8}} {
		g, err := GEFromBurst(c.loss, c.burst)
		if err != nil {
			t.Fatal(err)
		}
		ds := feed(newLink(t, ToClient, 11, Params{GE: &g}), n, 0, ms, 1000)
		runs := dropRuns(ds)
		lens := make([]float64, len(runs))
		for i, r := range runs {
			lens[i] = float64(r)
		}
		ok(t, near("mean burst", mean(lens), c.burst, 0.10))
		ok(t, near("GE loss rate", float64(countDrops(ds, DropGELoss))/n, c.loss, 0.10))
	}
}

func TestGEFourParameterLossRate(t *testing.T) {
	const n = 200_000
	g := GilbertElliott{P: 0.02, R: 0.25, H: 0.4, K: 0.995}
	ds := feed(newLink(t, ToServer, 3, Params{GE: &g}), n, 0, ms, 1000)
	ok(t, near("GE loss rate", float64(countDrops(ds, DropGELoss))/n, g.LossRate(), 0.08))
	if bad := (GilbertElliott{P: 1.5}); bad.Validate() == nil {
		t.Error("P=1.5 accepted")
	}
}
