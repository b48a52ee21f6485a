package fuzzcov

import (
	"html/template"
	"path"
	"path/filepath"
	"sort"

	"github.com/wirelab/wirelab/internal/svgchart"
)

// runView is a run with what the templates show of it.
type runView struct {
	*run
	Anchor     string // in-page id of the run's details
	Links      []link // stats.json, campaign.json, log/
	StatsHref  string
	CovText    string
	CrashText  string
	StateClass string // pass when the campaign finished, warn when running or cut short
	CrashClass string // fail with crashes, pass with none after triage
	IsLatest   bool
	Crashes    []crash
	Chart      template.HTML
}

type fuzzView struct {
	Root   string
	Latest []*runView
	All    []*runView
}

// Fuzz reads every campaign under outDir/fuzz: the latest run per target and engine in detail
// (totals, a coverage-over-time chart, deduplicated crashes with the top of the stack and the
// reproduce command) and all runs in a compact table. relOut is the path from the page's folder
// to outDir, for relative links. No campaigns is not an error: the section says how to run one.
func Fuzz(outDir, relOut string) (Section, error) {
	sec := Section{Title: "Fuzzing"}
	runs, err := findRuns(outDir)
	if err != nil {
		return sec, err
	}
	l := newLinker(outDir, relOut)
	v := fuzzView{Root: filepath.Join(outDir, "fuzz")}
	latestRuns := latest(runs)
	isLatest := map[*run]bool{}
	for _, r := range latestRuns {
		isLatest[r] = true
	}
	for _, r := range latestRuns {
		// Only the runs shown in detail warn: an old interrupted run is history, not a problem.
		if r.Warn != "" {
			sec.Warnings = append(sec.Warnings, r.Warn)
		}
		rv := newRunView(r, l, true)
		crashes, cw, err := loadCrashes(outDir, r, l)
		if err != nil {
			return sec, err
		}
		rv.Crashes = crashes
		if r.State != stateDone && len(crashes) > 0 {
			rv.CrashText = fmtInt(int64(len(crashes))) + " so far"
		}
		series, ylabel, sw := coverageSeries(outDir, r)
		rv.Chart = template.HTML(svgchart.Line(svgchart.Chart{
			Title: r.Target + " / " + r.Engine + ": " + ylabel + " over time", XLabel: "seconds", YLabel: ylabel,
			Width: 640, Height: 240, Series: series, // no YZero: the growth after the seeds is what matters
		}))
		sec.Warnings = append(append(sec.Warnings, cw...), sw...)
		v.Latest = append(v.Latest, rv)
	}
	// All runs: by target and engine, newest first.
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i], runs[j]
		if a.Target != b.Target {
			return a.Target < b.Target
		}
		if a.Engine != b.Engine {
			return a.Engine < b.Engine
		}
		return newer(a, b)
	})
	for _, r := range runs {
		v.All = append(v.All, newRunView(r, l, isLatest[r]))
	}
	sec.Body, err = render("fuzz", v)
	return sec, err
}

func newRunView(r *run, l linker, isLatest bool) *runView {
	rv := &runView{run: r, Anchor: "fuzz-" + r.Target + "-" + r.Engine, IsLatest: isLatest,
		StatsHref: l.href(path.Join(r.Rel, "stats.json"))}
	for _, f := range []string{"stats.json", "campaign.json", "log"} {
		if h := l.href(path.Join(r.Rel, f)); h != "" {
			rv.Links = append(rv.Links, link{f, h})
		}
	}
	c := r.Stats.Coverage
	switch {
	case c.Features != nil && c.Cov != nil:
		rv.CovText = "cov " + fmtInt(*c.Cov) + ", ft " + fmtInt(*c.Features)
	case c.Edges != nil:
		rv.CovText = fmtInt(*c.Edges) + " edges"
	}
	unique := 0
	switch {
	case r.Stats.Crashes != nil:
		unique = r.Stats.Crashes.Unique
		rv.CrashText = fmtInt(int64(unique))
	case r.Stats.RawCrashes > 0:
		unique = r.Stats.RawCrashes
		rv.CrashText = fmtInt(int64(unique)) + " raw, not triaged"
	default:
		rv.CrashText = "0"
	}
	rv.StateClass = "warn"
	if r.State == stateDone {
		rv.StateClass = "pass"
	}
	switch {
	case unique > 0:
		rv.CrashClass = "fail"
	case r.State == stateDone:
		rv.CrashClass = "pass"
	}
	return rv
}
