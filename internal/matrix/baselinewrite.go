package matrix

import (
	"bytes"
	"fmt"
	"os"
	"sort"

	"gopkg.in/yaml.v3"
)

// PruneAfter is how many make baseline runs in a row an entry's cells must pass before the entry
// goes: one passing run of a flake (or of a failure that is itself flaky) is no proof it ended.
const PruneAfter = 2

// BaselineChanges says what WriteBaseline did.
type BaselineChanges struct {
	Added, Kept, Pruned, Carried int // new entries; old ones kept; old ones removed; old ones this run did not cover
	Untriaged                    int // entries written with the raw failure as their reason
}

// WriteBaseline writes a baseline from a run's results (sub-cases included):
//   - a cell or sub-case that failed, or was unsupported at run time, is expected with the
//     signature of its failure; an old entry whose signature it matches stays as it is (its reason
//     is the finding), else a new entry names it exactly, untriaged;
//   - one whose repetitions disagreed (REPEAT=N) is flaky with its measured pass rate, for its
//     pair exactly (an old entry's reason kept);
//   - an old entry whose cells all passed every repetition counts the run (Passed) and is pruned
//     after PruneAfter such runs in a row; old entries the run did not cover are carried over.
func WriteBaseline(file string, results []Result, old *Baseline) (BaselineChanges, error) {
	var ch BaselineChanges
	var out []*Expectation
	type use struct{ failed, passed bool }
	used := map[*Expectation]*use{}
	seen := map[string]bool{}
	for _, r := range results {
		if r.Result == Unsupported || (r.BySubs && r.Sub == "") {
			continue
		}
		var x *Expectation
		if old != nil {
			x = old.match(r)
		}
		if x != nil && used[x] == nil {
			used[x] = &use{}
		}
		passedAll := r.Result == Succeeded && (r.Repeat == nil || r.Repeat.Passes == r.Repeat.Runs)
		if passedAll {
			if x != nil {
				used[x].passed = true
			}
			continue
		}
		if x != nil {
			used[x].failed = true
		}
		e := newExpectation(r)
		switch {
		case x != nil && e.Status == ExpectFlaky && x.Status == ExpectFlaky:
			e.Reason, e.Untriaged = x.Reason, x.Untriaged
		case x != nil && e.Status == x.Status && sigMatch(x.Signature, e.Signature):
			continue // the old entry says it already
		case x != nil && e.Status == ExpectFlaky:
			e.Reason, e.Untriaged = x.Reason, x.Untriaged // a failure found flaky: the same finding
		}
		if k := fmt.Sprint(e.globs()); !seen[k] {
			seen[k] = true
			out = append(out, e)
			ch.Added++
		}
	}
	if old != nil {
		for _, x := range old.Expected {
			u := used[x]
			switch {
			case u == nil:
				ch.Carried++
			case u.failed:
				x.Passed = 0
				ch.Kept++
			case x.Passed+1 >= PruneAfter:
				ch.Pruned++
				continue
			default:
				x.Passed++
				ch.Kept++
			}
			if k := fmt.Sprint(x.globs()) + x.Status; x.Status != ExpectFlaky || !seen[fmt.Sprint(x.globs())] {
				seen[k] = true
				out = append(out, x)
			}
		}
	}
	for _, x := range out {
		if x.Untriaged {
			ch.Untriaged++
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return fmt.Sprint(out[i].globs()) < fmt.Sprint(out[j].globs()) })
	var buf bytes.Buffer
	buf.WriteString(baselineHeader)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(Baseline{Expected: out}); err != nil {
		return ch, err
	}
	return ch, os.WriteFile(file, buf.Bytes(), 0o644)
}

// newExpectation is the entry that expects r as it happened, naming its cell exactly.
func newExpectation(r Result) *Expectation {
	e := &Expectation{Server: r.Server, Client: r.Client, Case: r.Case, Sub: r.Sub, Axes: r.Axes,
		Reason: oneLine(firstReason(r)), Untriaged: true}
	switch {
	case r.Flaky():
		e.Status = ExpectFlaky
		e.PassRate = float64(r.Repeat.Passes) / float64(r.Repeat.Runs)
		e.Runs = r.Repeat.Runs
	case r.Result == UnsupportedAtRunTime:
		e.Status, e.Signature = ExpectUnsupported, Signature(r)
	default:
		e.Status, e.Signature = ExpectFail, Signature(r)
	}
	return e
}

// firstReason is the reason of a result's first repetition that did not pass (its own when it
// ran once).
func firstReason(r Result) string {
	if r.Repeat != nil {
		for _, x := range r.Repeat.Of {
			if x.Result != Succeeded {
				return x.Reason
			}
		}
	}
	return r.Reason
}

const baselineHeader = `# The known findings: cells and sub-cases expected to fail (with the signature of the failure:
# its reason with numbers and ids as #, a glob), to flake (with the pass rate measured over
# runs repetitions: a REPEAT run is held to it by a one-sided binomial test at 1%), or to be
# unsupported at run time. Written by ` + "`make baseline`" + ` from a run: new entries name their cell
# exactly and carry the raw failure as reason, marked untriaged until a person writes the finding;
# an entry whose cells passed PruneAfter=2 baseline runs in a row goes. Every axis (server, client,
# case, the suite's own such as chain, sub) is a glob; an axis an entry does not name matches any.
`
