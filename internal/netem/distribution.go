package netem

import (
	"fmt"
	"math"
	"time"
)

// Distribution is the shape of the jitter added to Delay.
type Distribution int

const (
	// Uniform: delay + U(-jitter, +jitter).
	Uniform Distribution = iota
	// Normal: delay + N(0, jitter^2), i.e. jitter is the standard deviation.
	Normal
	// Pareto: delay + a heavy-tailed extra delay with mean jitter (Lomax,
	// shape 3), capped at 100 x jitter. Unlike the others it never shortens
	// the delay: it models the occasional very late packet.
	Pareto
)

const (
	paretoShape = 3.0
	paretoCap   = 100.0
)

var distNames = [...]string{"uniform", "normal", "pareto"}

func (d Distribution) String() string {
	if d.Valid() {
		return distNames[d]
	}
	return fmt.Sprintf("distribution(%d)", int(d))
}

// Valid reports whether d is one of the defined distributions.
func (d Distribution) Valid() bool { return d >= 0 && int(d) < len(distNames) }

// ParseDistribution maps "uniform", "normal" or "pareto" to a Distribution.
func ParseDistribution(s string) (Distribution, error) {
	for i, n := range distNames {
		if s == n {
			return Distribution(i), nil
		}
	}
	return 0, fmt.Errorf("unknown distribution %q (want uniform, normal or pareto)", s)
}

// offset turns one uniform sample u in (0,1) into a jitter offset. Using
// exactly one sample per packet, whatever the shape, keeps the jitter stream
// aligned when a schedule switches distributions.
func (d Distribution) offset(jitter time.Duration, u float64) time.Duration {
	if jitter <= 0 {
		return 0
	}
	j := float64(jitter)
	var x float64
	switch d {
	case Normal:
		x = j * math.Sqrt2 * math.Erfinv(2*u-1)
	case Pareto:
		// Lomax with scale 2j has mean j for shape 3.
		x = min(2*j*(math.Pow(1-u, -1/paretoShape)-1), paretoCap*j)
	default:
		x = j * (2*u - 1)
	}
	return time.Duration(math.Round(x))
}
