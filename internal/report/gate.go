package report

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// The gate's verdicts for a run, as the run's exit had them: INCOMPLETE (its plan not judged
// whole: never green), FAIL (results its baseline does not expect), PASS.
const (
	GatePass       = "PASS"
	GateFail       = "FAIL"
	GateIncomplete = "INCOMPLETE"
)

// Marks: how the baseline took a result (the matrix's cells and the sub-case lists show them).
const (
	markRegression = "regression" // did not pass, and no entry expects it
	markExpected   = "expected"   // failed (or unsupported at run time) as an entry expects
	markFlaky      = "flaky"      // a flaky entry's cell within its measured rate
	markFlakyOnce  = "flaky-once" // a flaky entry's cell run once: decides nothing
	markStale      = "stale"      // passed where an entry expects a failure: the entry is stale
)

// markRank orders marks for a cell with sub-cases: the cell shows the worst of its own and its
// sub-cases'.
var markRank = map[string]int{markRegression: 5, markExpected: 4, markFlaky: 3, markFlakyOnce: 2, markStale: 1}

// gate is the gate's verdict on a shown run: its baseline held against the run's verdicts.
type gate struct {
	Verdict, Class string // GatePass...; its class in the stylesheet: gate-pass, gate-fail, gate-incomplete
	Line           string // what the verdict rests on, one line
	Incomplete     string // how the run falls short of its plan ("": complete)
	Baseline       string // which baseline judged the run, and why that one
	Problem        string // the baseline could not be read: the run is judged as without one
	Regressions    []gateItem
	Stale          []gateItem
	Untriaged      []entryItem
	marks          map[string]string // result key -> mark
}

// gateItem is a result the gate names: its label, page and why.
type gateItem struct{ Label, Href, Why string }

// entryItem is a baseline entry: the cells it covers, what it expects and its reason.
type entryItem struct{ Cells, Status, Reason string }

// judge holds a run's verdicts against its baseline (o.baselineFor); pages maps a result's key
// to its cell page (a sub-case's: its cell's, at the sub-case's row).
func judge(o Options, s *shown, r *Run, verdicts []matrix.Result, pages map[string]string) gate {
	g := gate{marks: map[string]string{}}
	b := &matrix.Baseline{}
	file, why := o.baselineFor(s, r)
	g.Baseline = why
	if file != "" {
		loaded, err := matrix.LoadBaseline(file, matrix.Universe{})
		if err != nil {
			g.Problem = fmt.Sprintf("%v: judged as if the run had no baseline (every failed result a regression)", err)
		} else {
			b = loaded
		}
	}
	rep := b.Compare(verdicts)
	for _, x := range []struct {
		rs   []matrix.Result
		mark string
	}{{rep.Expected, markExpected}, {rep.FlakyWithin, markFlaky}, {rep.FlakyOnce, markFlakyOnce}, {rep.NewlyPassing, markStale}} {
		for _, res := range x.rs {
			g.marks[res.Key()] = x.mark
		}
	}
	for _, reg := range rep.Regressions {
		g.marks[reg.Key()] = markRegression
		g.Regressions = append(g.Regressions, gateItem{Label: reg.Label(), Href: pages[reg.Key()], Why: reg.Why})
	}
	for _, res := range rep.NewlyPassing {
		g.Stale = append(g.Stale, gateItem{Label: res.Label(), Href: pages[res.Key()],
			Why: "passed where an entry expects it not to (make baseline prunes the entry after it passed twice)"})
	}
	for _, x := range rep.Untriaged {
		g.Untriaged = append(g.Untriaged, entryItem{Cells: entryCells(x), Status: x.Status, Reason: x.Reason})
	}
	counts := fmt.Sprintf("%s, %s within their rate, %s run once", plural(len(rep.Expected), "failure", "failures")+" as expected",
		plural(len(rep.FlakyWithin), "flaky result", "flaky results"), plural(len(rep.FlakyOnce), "flaky result", "flaky results"))
	if len(rep.NewlyPassing) > 0 {
		counts += ", " + plural(len(rep.NewlyPassing), "stale entry", "stale entries") + " (newly passing)"
	}
	regressions := plural(len(rep.Regressions), "regression", "regressions")
	g.Incomplete = r.State.Incompleteness(wholeCells(r.Results))
	ran := fmt.Sprintf("all %s ran", plural(r.State.Done.Planned, "planned cell", "planned cells"))
	if !r.State.Recorded {
		ran = "result.json does not say whether every planned cell ran (an older wirelab's)"
	}
	switch {
	case g.Incomplete != "":
		g.Verdict, g.Class = GateIncomplete, "gate-incomplete"
		g.Line = fmt.Sprintf("%s; of what ran: %s, %s", g.Incomplete, regressions, counts)
	case len(rep.Regressions) > 0:
		g.Verdict, g.Class = GateFail, "gate-fail"
		g.Line = fmt.Sprintf("%s (results the baseline does not expect), %s; %s", regressions, counts, ran)
	default:
		g.Verdict, g.Class = GatePass, "gate-pass"
		g.Line = fmt.Sprintf("no regressions, %s; %s", counts, ran)
	}
	return g
}

// plural is "1 regression", "2 regressions".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// mark is how the gate took a cell: with sub-cases, the worst of its own mark and theirs.
func (g gate) mark(c *Cell) string {
	m := g.marks[c.R.Key()]
	for _, sub := range c.Subs {
		if x := g.marks[sub.Key()]; markRank[x] > markRank[m] {
			m = x
		}
	}
	return m
}

// entryCells names the cells an entry covers: each axis glob it has, name=glob.
func entryCells(x *matrix.Expectation) string {
	parts := []string{"server=" + x.Server, "client=" + x.Client, "case=" + x.Case}
	var names []string
	for n := range x.Axes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		parts = append(parts, n+"="+x.Axes[n])
	}
	if x.Sub != "" {
		parts = append(parts, "sub="+x.Sub)
	}
	return strings.Join(parts, " ")
}

func wholeCells(rs []matrix.Result) int {
	n := 0
	for _, r := range rs {
		if r.Sub == "" {
			n++
		}
	}
	return n
}

// baselineFor is the baseline file that judges a run ("" none) and a line saying which and why.
// It follows the run's own choice where the report can know it: the report's --baseline for the
// suite, else a --baseline the run's run.json records, else the suite's default
// (conformance/<suite>/expected.yml, when it exists) if the run used the suite's own data files
// (ownData). A --baseline given to the run itself is not in run.json (the flag is local to a
// run): name it to the report then.
func (o Options) baselineFor(s *shown, r *Run) (string, string) {
	file, from := o.Baselines[s.name], "named by the report's --baseline"
	if file == "" {
		for _, a := range r.State.Args {
			if v, ok := strings.CutPrefix(a, "--baseline="); ok {
				file, from = v, "the run's --baseline (run.json)"
				if !filepath.IsAbs(file) && file != "none" {
					file = filepath.Join(o.Root, file)
				}
			}
		}
	}
	switch {
	case file == "none":
		return "", "No baseline (" + from + ": none): every result that did not pass is a regression."
	case file != "":
		return file, "Baseline " + o.rel(file) + " (" + from + ")."
	case !ownData(s.suite, o.Root, r.State.Args):
		return "", "No baseline: the run used data files of its own (run.json), so the suite's default baseline does not apply; " +
			"every result that did not pass is a regression (wirelab report --baseline " + s.name + "=FILE names one)."
	}
	def := filepath.Join(o.Root, "conformance", s.name, "expected.yml")
	if _, err := os.Stat(def); errors.Is(err, os.ErrNotExist) {
		return "", "No baseline (" + o.rel(def) + " does not exist): every result that did not pass is a regression."
	}
	return def, "Baseline " + o.rel(def) + " (the suite's default: the run used its own data files)."
}

// rel names a repository file relative to the repository.
func (o Options) rel(file string) string {
	if r, err := filepath.Rel(o.Root, file); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return file
}

// ownData reports whether a run used the suite's own data files, from its run.json args: no
// flag of the suite whose default is a file under the repository's conformance/ folder (its
// cases, sections, chains, bench file) was set to another file. A run without run.json counts
// as on its own data.
func ownData(s suite.Suite, root string, args []string) bool {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	s.Flags(fs, root)
	data := filepath.Join(root, "conformance") + string(filepath.Separator)
	for _, a := range args {
		name, value, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := fs.Lookup(name); ok && f != nil && strings.HasPrefix(f.DefValue, data) && value != f.DefValue {
			return false
		}
	}
	return true
}
