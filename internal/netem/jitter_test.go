package netem

import (
	"math"
	"testing"
	"time"
)

func TestJitterNeverReordersByDefault(t *testing.T) {
	for _, dist := range []Distribution{Uniform, Normal, Pareto} {
		p := Params{Delay: 50 * ms, Jitter: 20 * ms, JitterDist: dist}
		ok(t, noReorder(feed(newLink(t, ToClient, 4, p), 5000, 0, ms, 1000)))
		// The same link with reordering allowed does reorder: the check
		// above is not passing vacuously.
		p.JitterReorder = true
		if noReorder(feed(newLink(t, ToClient, 4, p), 5000, 0, ms, 1000)) == nil {
			t.Errorf("%v: jitter 20ms at 1ms spacing with reordering allowed never reordered", dist)
		}
	}
}

// offsets returns release - arrival - delay for n packets spaced far apart,
// with reordering allowed so nothing clamps the raw samples.
func offsets(t *testing.T, dist Distribution, delay, jitter time.Duration, n int) []float64 {
	l := newLink(t, ToServer, 8, Params{Delay: delay, Jitter: jitter, JitterDist: dist, JitterReorder: true})
	xs := make([]float64, n)
	for i := range n {
		now := time.Duration(i) * s
		xs[i] = float64(l.Process(now, udp(100)).ReleaseAt - now - delay)
	}
	return xs
}

func TestJitterDistributions(t *testing.T) {
	const n = 20_000
	const j = 10 * ms
	jf := float64(j)
	frac := func(xs []float64, pred func(float64) bool) float64 {
		k := 0
		for _, x := range xs {
			if pred(x) {
				k++
			}
		}
		return float64(k) / float64(len(xs))
	}
	std := func(xs []float64) float64 {
		m, v := mean(xs), 0.0
		for _, x := range xs {
			v += (x - m) * (x - m)
		}
		return math.Sqrt(v / float64(len(xs)))
	}

	u := offsets(t, Uniform, 100*ms, j, n)
	if f := frac(u, func(x float64) bool { return x < -jf || x > jf }); f != 0 {
		t.Errorf("uniform: %.4f of samples outside ±jitter", f)
	}
	ok(t, near("uniform |mean|/jitter + 1", math.Abs(mean(u))/jf+1, 1, 0.02))
	ok(t, near("uniform std", std(u), jf/math.Sqrt(3), 0.03))
	if f := frac(u, func(x float64) bool { return x > 0.95*jf }); f < 0.01 {
		t.Errorf("uniform never reaches the top of its range (%.4f)", f)
	}

	g := offsets(t, Normal, 100*ms, j, n)
	ok(t, near("normal |mean|/jitter + 1", math.Abs(mean(g))/jf+1, 1, 0.03))
	ok(t, near("normal std", std(g), jf, 0.03))
	ok(t, near("normal P(|x|<σ)", frac(g, func(x float64) bool { return math.Abs(x) < jf }), 0.6827, 0.03))

	p := offsets(t, Pareto, 100*ms, j, n)
	if f := frac(p, func(x float64) bool { return x < 0 || x > paretoCap*jf }); f != 0 {
		t.Errorf("pareto: %.4f of samples outside [0, cap]", f)
	}
	ok(t, near("pareto mean", mean(p), jf, 0.1))
	// Heavy tail: P(X > 5j) = (1+2.5)^-3 ≈ 2.3% for the Lomax, while a normal
	// with the same scale essentially never gets there.
	ok(t, near("pareto P(x>5j)", frac(p, func(x float64) bool { return x > 5*jf }), math.Pow(3.5, -3), 0.15))
	if f := frac(g, func(x float64) bool { return x > 5*jf }); f > 0.0005 {
		t.Errorf("normal P(x>5σ) = %.4f: not a light tail", f)
	}
}

func TestJitterNeverNegativeDelay(t *testing.T) {
	l := newLink(t, ToServer, 2, Params{Delay: ms, Jitter: 20 * ms, JitterDist: Uniform, JitterReorder: true})
	var lat []time.Duration
	for i := range 2000 {
		now := time.Duration(i) * 100 * ms
		lat = append(lat, l.Process(now, udp(100)).ReleaseAt-now)
	}
	ok(t, within("latency", lat, 0, 21*ms))
}

func TestParseDistribution(t *testing.T) {
	for _, d := range []Distribution{Uniform, Normal, Pareto} {
		if got, err := ParseDistribution(d.String()); err != nil || got != d {
			t.Errorf("round trip %v: %v %v", d, got, err)
		}
	}
	if _, err := ParseDistribution("gaussian"); err == nil {
		t.Error("gaussian accepted")
	}
}
