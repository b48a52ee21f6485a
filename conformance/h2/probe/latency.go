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
// baseline median (on a slow link the path's own latency: the median, because one request the
// machine held up moves a p95 of 20 and would multiply), or the baseline p95 plus LatencySlack
// times scale (the machine's slowdown, at least 1), whichever is larger. On a fast link a
// factor alone would fail a server for scheduling noise.
func latencyLimit(baseP50, baseP95 time.Duration, factor, scale float64) time.Duration {
	return max(time.Duration(factor*float64(baseP50)), baseP95+time.Duration(scale*float64(LatencySlack)))
}
