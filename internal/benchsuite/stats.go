package benchsuite

import (
	"math"
	"sort"
)

// Quantile is the q-quantile (0..1) of xs by linear interpolation between the closest ranks
// (R's type 7, numpy's default); NaN for no values.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (pos-float64(lo))*(s[hi]-s[lo])
}

// Median is the 0.5-quantile.
func Median(xs []float64) float64 { return Quantile(xs, 0.5) }

// Spread summarizes repetitions: median, quartiles and extremes.
type Spread struct{ Median, P25, P75, Min, Max float64 }

// SpreadOf is xs's spread (NaNs for no values).
func SpreadOf(xs []float64) Spread {
	return Spread{Median: Median(xs), P25: Quantile(xs, 0.25), P75: Quantile(xs, 0.75), Min: Quantile(xs, 0), Max: Quantile(xs, 1)}
}
