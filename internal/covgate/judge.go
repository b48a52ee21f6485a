package covgate

import (
	"fmt"
	"math"
)

// Counts is one metric's covered and total items (lines, branches or functions).
type Counts struct {
	Covered int `json:"covered"`
	Total   int `json:"total"`
}

// Percent is gcovr's own figure (rounded to 0.1, never shown as 100 unless complete; 100 when
// there is nothing to cover), so a gate judged here agrees with --fail-under-*.
func (c Counts) Percent() float64 {
	if c.Total == 0 {
		return 100
	}
	p := math.RoundToEven(1000*float64(c.Covered)/float64(c.Total)) / 10
	if p == 100 && c.Covered < c.Total {
		p = 99.9
	}
	return p
}

// Exact is the unrounded percentage the ratchet rounds down.
func (c Counts) Exact() float64 {
	if c.Total == 0 {
		return 100
	}
	return 100 * float64(c.Covered) / float64(c.Total)
}

// Measured is one target's coverage of its gated file set, per metric.
type Measured map[string]Counts

// Broken is one gate metric below its threshold.
type Broken struct {
	Target    string  `json:"target"`
	Metric    string  `json:"metric"`
	Measured  float64 `json:"measured"`
	Threshold float64 `json:"threshold"`
	Reason    string  `json:"reason,omitempty"`
}

// String is the one line printed per broken gate.
func (b Broken) String() string {
	if b.Reason != "" {
		return fmt.Sprintf("coverage gate FAILED: %s %s: %s", b.Target, b.Metric, b.Reason)
	}
	return fmt.Sprintf("coverage gate FAILED: %s %s measured %.1f%% < threshold %.1f%%",
		b.Target, b.Metric, b.Measured, b.Threshold)
}

// Judge compares measured coverage with the gate's thresholds. A gated file set with no lines
// at all is broken too: gcovr counts "nothing to cover" as 100%, which would let a filter that
// matches no file pass every gate.
func Judge(g *Gate, m Measured) []Broken {
	var out []Broken
	if m["lines"].Total == 0 {
		return []Broken{{Target: g.Target, Metric: "files", Reason: fmt.Sprintf("the file set %q matched no measured line", g.Files)}}
	}
	for _, metric := range Metrics {
		t := g.Thresholds[metric]
		if t == nil {
			continue
		}
		if p := m[metric].Percent(); p < *t {
			out = append(out, Broken{Target: g.Target, Metric: metric, Measured: p, Threshold: *t})
		}
	}
	return out
}

// gcovr's exit status bits for --fail-under-line, -branch and -function.
var gcovrBits = map[string]int{"lines": 2, "branches": 4, "functions": 16}

// GcovrArgs are the --fail-under-* flags for a gate's thresholds.
func GcovrArgs(g *Gate) []string {
	flags := map[string]string{"lines": "--fail-under-line", "branches": "--fail-under-branch", "functions": "--fail-under-function"}
	var args []string
	for _, metric := range Metrics {
		if t := g.Thresholds[metric]; t != nil {
			args = append(args, flags[metric], fmt.Sprintf("%g", *t))
		}
	}
	return args
}

// GcovrFailed decodes gcovr's exit status into the metrics it found below threshold; other
// bits (1: gcovr itself failed) come back as an error.
func GcovrFailed(status int) ([]string, error) {
	var out []string
	rest := status
	for _, metric := range Metrics {
		if status&gcovrBits[metric] != 0 {
			out = append(out, metric)
			rest &^= gcovrBits[metric]
		}
	}
	if rest != 0 {
		return out, fmt.Errorf("gcovr exited %d (not a gate failure)", status)
	}
	return out, nil
}
