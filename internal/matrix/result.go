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

// Result words: the upstream QUIC interop runner's (succeeded, failed, unsupported: what a
// manifest rules out, never run), and one of wirelab's own: a cell that ran although declared
// supported, and found its case unsupported (an endpoint answered 127, a case found nothing to
// judge in what the server did). That is a result of its own: counted, shown, and a regression
// unless the baseline expects it.
const (
	Succeeded            = "succeeded"
	Failed               = "failed"
	Unsupported          = "unsupported"
	UnsupportedAtRunTime = "unsupported-at-run-time"
)

// Result is one cell's verdict: a line of results.jsonl. A suite without a client axis names
// the client that drives the cell (h2spec, h2check, ...).
type Result struct {
	Cell
	Result  string  `json:"result"`
	Reason  string  `json:"reason,omitempty"` // one line: which check failed and why
	Seconds float64 `json:"seconds"`
	// Load is the machine's 1-minute load average when the cell ended (the highest over its
	// repetitions): a timing verdict reads differently on a busy machine.
	Load  float64 `json:"load,omitempty"`
	Dir   string  `json:"dir"`
	Rerun string  `json:"rerun"`
	// Measurements: one value per repetition and a details line (QUIC: kbit/s, upstream's text).
	Values  []float64 `json:"values,omitempty"`
	Cross   []float64 `json:"cross_traffic_kbps,omitempty"` // QUIC crosstraffic: the TCP flow's mean per repetition
	Details string    `json:"details,omitempty"`
	// --repeat N > 1 (non-measurement cells): the pass rate k/N, flaky when 0 < k < N, and each
	// repetition; Result is then the majority (k > N/2; a tie is failed). Absent when run once.
	Repeat *Repeats `json:"repeat,omitempty"`
	// Sub-cases: a client that runs many cases in one cell (h2spec, connectrpc conformance)
	// reports each; they are results of their own (Cell.Sub set: rows of results.jsonl after the
	// cell's, JUnit testcases, baseline keys). The cell's row counts them (SubCases) and says when
	// its verdict is only theirs (BySubs): then the sub-cases are judged, not the cell.
	Subs     []Result `json:"-"`
	SubCases int      `json:"sub_cases,omitempty"`
	BySubs   bool     `json:"by_subs,omitempty"`
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

// Tally counts results by verdict: whole cells, and the sub-cases apart.
type Tally struct {
	Passed, Failed, Unsupported, RunTime int
	SubPassed, SubFailed, SubOther       int
}

// Count tallies results.
func Count(results []Result) Tally {
	var t Tally
	for _, r := range results {
		if r.Sub != "" {
			switch r.Result {
			case Succeeded:
				t.SubPassed++
			case Failed:
				t.SubFailed++
			default:
				t.SubOther++
			}
			continue
		}
		switch r.Result {
		case Succeeded:
			t.Passed++
		case Unsupported:
			t.Unsupported++
		case UnsupportedAtRunTime:
			t.RunTime++
		default:
			t.Failed++
		}
	}
	return t
}

func (t Tally) String() string {
	s := fmt.Sprintf("%d passed, %d failed, %d unsupported", t.Passed, t.Failed, t.Unsupported)
	if t.RunTime > 0 {
		s += fmt.Sprintf(", %d unsupported at run time", t.RunTime)
	}
	if n := t.SubPassed + t.SubFailed + t.SubOther; n > 0 {
		s += fmt.Sprintf(" (sub-cases: %d passed, %d failed, %d other)", t.SubPassed, t.SubFailed, t.SubOther)
	}
	return s
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

// Rows are what results.jsonl holds for a cell: its own row (counting its sub-cases) and one row
// per sub-case, each with the cell's names, folder and rerun command and its own verdict.
func (r Result) Rows() []Result {
	cell := r
	cell.Subs, cell.SubCases = nil, len(r.Subs)
	out := []Result{cell}
	for _, s := range r.Subs {
		row := Result{Cell: r.Cell, Result: s.Result, Reason: s.Reason, Details: s.Details, Dir: r.Dir, Rerun: r.Rerun, Repeat: s.Repeat}
		row.Sub = s.Sub
		out = append(out, row)
	}
	return out
}
