package svgchart

import (
	"math"
	"strconv"
)

// tick is one labelled axis position, in data units.
type tick struct {
	v     float64
	label string
}

// niceStep returns the smallest 1, 2 or 5 x 10^k that is >= raw.
func niceStep(raw float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if s := m * mag; s >= raw*(1-1e-9) {
			return s
		}
	}
	return 10 * mag
}

// linearTicks extends [lo, hi] to multiples of a nice step chosen for about five intervals
// and returns the extended range with its ticks.
func linearTicks(lo, hi float64) (float64, float64, []tick) {
	if hi < lo {
		lo, hi = hi, lo
	}
	if hi == lo {
		// A flat series still needs a span; pad by 10% of the value (or 1 around zero).
		d := math.Abs(lo) * 0.1
		if d == 0 {
			d = 1
		}
		lo, hi = lo-d, hi+d
	}
	step := niceStep((hi - lo) / 5)
	lo = math.Floor(lo/step+1e-9) * step
	hi = math.Ceil(hi/step-1e-9) * step
	dec := max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
	lo, hi = roundTo(lo, dec), roundTo(hi, dec)
	unit, suffix := siUnit(math.Max(math.Abs(lo), math.Abs(hi)))
	var ts []tick
	n := int(math.Round((hi - lo) / step))
	for i := 0; i <= n; i++ {
		// Multiply instead of accumulating, and round to the step's decimals, so float
		// noise (0.35000000000000003) never reaches a label or the range.
		v := roundTo(lo+float64(i)*step, dec)
		label := "0"
		if v != 0 {
			label = strconv.FormatFloat(v/unit, 'f', -1, 64) + suffix
		}
		ts = append(ts, tick{v, label})
	}
	return lo, hi, ts
}

// siUnit picks k/M/G for large axes so labels stay short (1.5M rather than 1500000).
func siUnit(m float64) (float64, string) {
	switch {
	case m >= 1e9:
		return 1e9, "G"
	case m >= 1e6:
		return 1e6, "M"
	case m >= 1e4:
		return 1e3, "k"
	}
	return 1, ""
}

// roundTo rounds v to dec decimals through its decimal representation (exact for labels).
func roundTo(v float64, dec int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', dec, 64), 64)
	if r == 0 {
		return 0 // no negative zero
	}
	return r
}

// logTicks returns the decade-aligned range around [lo, hi] (both > 0) as log10 exponents,
// with ticks at powers of ten; 2 and 5 multiples are added when the range spans few decades.
func logTicks(lo, hi float64) (float64, float64, []tick) {
	a, b := math.Floor(math.Log10(lo)+1e-9), math.Ceil(math.Log10(hi)-1e-9)
	if b <= a {
		b = a + 1
	}
	decades := int(b - a)
	stride := max(1, (decades+5)/6) // at most ~7 decade labels
	var ts []tick
	for e := int(a); e <= int(b); e++ {
		p := math.Pow(10, float64(e))
		if (e-int(a))%stride == 0 {
			ts = append(ts, tick{p, fmtPow(p, e)})
		}
		if decades <= 2 && e < int(b) {
			ts = append(ts, tick{2 * p, fmtPow(2*p, e)}, tick{5 * p, fmtPow(5*p, e)})
		}
	}
	return a, b, ts
}

// fmtPow labels m x 10^e compactly: 0.05, 200, 5k, 2M, 1e-6.
func fmtPow(v float64, e int) string {
	switch {
	case e >= 9:
		return strconv.FormatFloat(v/1e9, 'f', -1, 64) + "G"
	case e >= 6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case e >= 3:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	case e >= -3:
		return strconv.FormatFloat(v, 'f', -e, 64) // -e decimals show exactly m x 10^e
	}
	return strconv.FormatFloat(v, 'g', 1, 64)
}
