// Package simcheck compares what the sim was configured to do with what probes measured through
// the real topology. Each check is a pure function so it can be shown to fail on bad numbers.
package simcheck

import (
	"fmt"
	"math"
	"time"

	"github.com/wirelab/wirelab/internal/netem"
	"github.com/wirelab/wirelab/internal/simstats"
)

// Check is one configured-versus-measured comparison.
type Check struct {
	Profile    string  `json:"profile"`
	Metric     string  `json:"metric"`
	Unit       string  `json:"unit"`
	Configured float64 `json:"configured"`
	Measured   float64 `json:"measured"`
	Low        float64 `json:"low"`  // accepted range
	High       float64 `json:"high"` //
	Pass       bool    `json:"pass"`
	// NotJudged says why the measurement was not judged (Machine.Judge: the machine was too busy
	// to measure the sim); Pass is then false but the check did not fail.
	NotJudged string `json:"not_judged,omitempty"`
}

func (c Check) String() string {
	verdict := "ok"
	switch {
	case c.NotJudged != "":
		verdict = "n/j"
	case !c.Pass:
		verdict = "FAIL"
	}
	line := fmt.Sprintf("%-4s %-22s %-16s configured %9.3f %-6s measured %9.3f (accept %.3f .. %.3f)",
		verdict, c.Profile, c.Metric, c.Configured, c.Unit, c.Measured, c.Low, c.High)
	if c.NotJudged != "" {
		line += " not judged: " + c.NotJudged
	}
	return line
}

func within(c Check) Check {
	c.Pass = c.Measured >= c.Low && c.Measured <= c.High
	return c
}

// Targets from the sim's fidelity requirements.
const (
	RTTp50Tolerance = 1.0  // ms either side of the configured RTT
	RTTp99Slack     = 2.0  // ms above the configured RTT
	RateTolerance   = 0.05 // relative
	z99             = 2.5758293035489
)

// RTTP50 checks the median round trip against the configured RTT (both one-way delays plus the
// probe's serialization at the configured rates).
func RTTP50(profile string, configuredMs, measuredMs float64) Check {
	return within(Check{Profile: profile, Metric: "rtt_p50", Unit: "ms", Configured: configuredMs, Measured: measuredMs,
		Low: configuredMs - RTTp50Tolerance, High: configuredMs + RTTp50Tolerance})
}

// RTTP99 checks the 99th percentile round trip: at most RTTp99Slack above the configured RTT.
// Profiles with jitter widen the bound by the configured jitter of both directions.
func RTTP99(profile string, configuredMs, jitterMs, measuredMs float64) Check {
	return within(Check{Profile: profile, Metric: "rtt_p99", Unit: "ms", Configured: configuredMs, Measured: measuredMs,
		Low: configuredMs - jitterMs, High: configuredMs + jitterMs + RTTp99Slack})
}

// Loss checks a measured loss rate over n packets against the configured probability: the
// measurement must lie inside the 99% binomial (normal approximation) confidence interval.
// At least 10,000 packets are needed for the interval to mean something.
func Loss(profile, metric string, configured float64, lost, n int) Check {
	half := z99 * math.Sqrt(configured*(1-configured)/float64(n))
	if configured == 0 {
		half = 0 // nothing may be lost at all
	}
	c := within(Check{Profile: profile, Metric: metric, Unit: "ratio", Configured: configured,
		Measured: float64(lost) / float64(n), Low: math.Max(0, configured-half), High: configured + half})
	if n < 10000 {
		c.Pass = false
		c.Metric += " (needs >=10k packets)"
	}
	return c
}

// Rate checks an achieved rate against the configured one (±5%).
func Rate(profile, metric string, configuredMbps, measuredMbps float64) Check {
	return within(Check{Profile: profile, Metric: metric, Unit: "Mbit/s", Configured: configuredMbps, Measured: measuredMbps,
		Low: configuredMbps * (1 - RateTolerance), High: configuredMbps * (1 + RateTolerance)})
}

// Blackhole checks that probes sent every interval saw a gap of the configured blackhole length:
// the longest run of consecutive lost probes must cover the off time (±10% + 2 probes).
func Blackhole(profile string, offMs, intervalMs float64, longestLossRun int) Check {
	want := offMs / intervalMs
	return within(Check{Profile: profile, Metric: "blackhole_gap", Unit: "probes", Configured: want, Measured: float64(longestLossRun),
		Low: want*0.9 - 2, High: want*1.1 + 2})
}

// Rebind checks NAT rebinding from the sim's final counters (st): the sim rebound exactly as
// often as its schedule r puts rebindings at or before its engine's clock (rebindings happen as
// packets reach them, so how many depends on when the probes ran, not on the sim), which must
// be at least want (the probes crossed the rebindings the scenario is about); and at most
// maxLoss of the n probes were lost (only those in flight to a forgotten binding may be).
func Rebind(profile string, want int, r netem.Rebind, st simstats.Stats, lost, n int, maxLoss float64) []Check {
	due := r.Due(time.Duration(st.Clock * float64(time.Second)))
	return []Check{
		within(Check{Profile: profile, Metric: "rebinds", Unit: "count", Configured: float64(due), Measured: float64(st.Rebinds),
			Low: float64(max(due, want)), High: float64(due)}),
		within(Check{Profile: profile, Metric: "loss_across_rebinds", Unit: "ratio", Configured: 0, Measured: float64(lost) / float64(n),
			Low: 0, High: maxLoss}),
	}
}
