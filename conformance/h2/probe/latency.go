package probe

import (
	"math"
	"slices"
	"time"
)

// percentile is the nearest-rank p-th percentile (0 < p <= 100); 0 for no samples.
func percentile(lat []time.Duration, p float64) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[max(rank, 1)-1]
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

// latencyLimit is how slow the well-behaved client may get during a probe: factor times its
// baseline p95, or the baseline p95 plus LatencySlack, whichever is larger (on a fast link a
// factor alone would fail a server for scheduling noise).
func latencyLimit(baselineP95 time.Duration, factor float64) time.Duration {
	return max(time.Duration(factor*float64(baselineP95)), baselineP95+LatencySlack)
}
