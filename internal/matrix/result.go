// Package matrix is the suite-neutral matrix runner every wirelab suite plugs into: cells of
// client x server x case run -j at a time, each result journaled (results.jsonl) as it finishes
// so an interrupted run keeps it and --resume skips it, progress with an ETA and a heartbeat,
// --repeat with pass rates, the plan printed first, JUnit and a terminal table at the end. What
// a cell does (topology, checks, verdict) is the suite's: it hands the runner a function.
package matrix

import (
	"fmt"
	"sort"
)

// Result words, as the upstream QUIC interop runner's result.json uses them.
const (
	Succeeded   = "succeeded"
	Failed      = "failed"
	Unsupported = "unsupported"
)

// Result is one cell's verdict: a line of results.jsonl. A suite without a client axis names
// the client that drives the cell (h2spec, h2check, ...).
type Result struct {
	Cell
	Result  string  `json:"result"`
	Reason  string  `json:"reason,omitempty"` // one line: which check failed and why
	Seconds float64 `json:"seconds"`
	Dir     string  `json:"dir"`
	Rerun   string  `json:"rerun"`
	// Measurements: one value per repetition and a details line (QUIC: kbit/s, upstream's text).
	Values  []float64 `json:"values,omitempty"`
	Cross   []float64 `json:"cross_traffic_kbps,omitempty"` // QUIC crosstraffic: the TCP flow's mean per repetition
	Details string    `json:"details,omitempty"`
	// --repeat N > 1 (non-measurement cells): the pass rate k/N, flaky when 0 < k < N, and each
	// repetition; Result is then the majority (k > N/2; a tie is failed). Absent when run once.
	Repeat *Repeats `json:"repeat,omitempty"`
}

// PassRate is "k/N" for a repeated cell, "" for a cell run once.
func (r Result) PassRate() string {
	if r.Repeat == nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", r.Repeat.Passes, r.Repeat.Runs)
}

// Flaky reports whether some but not all of a repeated cell's repetitions passed.
func (r Result) Flaky() bool { return r.Repeat != nil && r.Repeat.Flaky }

// Counts tallies results by verdict.
func Counts(results []Result) (passed, failed, unsupported int) {
	for _, r := range results {
		switch r.Result {
		case Succeeded:
			passed++
		case Unsupported:
			unsupported++
		default:
			failed++
		}
	}
	return
}

// FlakyCount counts the cells whose --repeat repetitions disagreed.
func FlakyCount(results []Result) int {
	n := 0
	for _, r := range results {
		if r.Flaky() {
			n++
		}
	}
	return n
}

// SortResults orders results by their cells' axes (server, client, case, the suite's axes, sub)
// for stable output files.
func SortResults(rs []Result) {
	sort.SliceStable(rs, func(a, b int) bool { return lessCell(rs[a].Cell, rs[b].Cell) })
}

func lessCell(a, b Cell) bool {
	x, y := a.Named(), b.Named()
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			if x[i].Name != y[i].Name {
				return x[i].Name < y[i].Name
			}
			return x[i].Value < y[i].Value
		}
	}
	return len(x) < len(y)
}
