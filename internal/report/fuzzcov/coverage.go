package fuzzcov

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/covgate"
)

// reportNames orders and names the per-target reports summary.json lists (paths relative to
// out/coverage) that a reader opens; the JSON summaries are for tools and stay unlinked.
var reportNames = []struct{ key, name string }{
	{"html", "details"}, {"gate_html", "gate details"}, {"text", "summary.txt"}, {"gate_text", "gate.txt"},
	{"cobertura", "cobertura.xml"}, {"profile", "go.cover"},
}

type covCell struct {
	Pct, Counts, Threshold string
	Class                  string // pass / fail against a threshold, na when nothing is measured
}

type covTarget struct {
	Name, Kind, Scope, WholeScope string
	Files                         string // the gated file set, for a tooltip
	CorpusFiles                   int
	Gate, Whole                   []covCell // per covgate.Metrics
	Verdict, Class                string
	Error                         string
	Broken                        []string
	Links                         []link
}

type covView struct {
	Root, SummaryHref, RunID, GatesFile string
	Missing, Passed                     bool
	Metrics                             []string
	Targets                             []covTarget
}

// Coverage reads outDir/coverage/summary.json (written by `make coverage`): per target its
// lines, branches and functions for the gated set against the gate's thresholds and for
// everything measured, with links to gcovr's HTML details. No summary is not an error.
func Coverage(outDir, relOut string) (Section, error) {
	sec := Section{Title: "Coverage gates"}
	l := newLinker(outDir, relOut)
	p := filepath.Join(outDir, "coverage", "summary.json")
	v := covView{Root: filepath.Join(outDir, "coverage"), Metrics: covgate.Metrics}
	var sum covgate.Summary
	err := readJSON(p, &sum)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		v.Missing = true
	case err != nil:
		return sec, err
	case sum.Targets == nil:
		return sec, missingField(p, "targets")
	default:
		v.SummaryHref, v.RunID, v.GatesFile, v.Passed = l.href("coverage/summary.json"), sum.RunID, sum.Gates, sum.Passed
		names := make([]string, 0, len(sum.Targets))
		for n := range sum.Targets {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			ts := sum.Targets[n]
			if ts == nil {
				return sec, fmt.Errorf("%s: field targets.%s: null", p, n)
			}
			t, warns := covTargetView(n, ts, l)
			v.Targets = append(v.Targets, t)
			sec.Warnings = append(sec.Warnings, warns...)
		}
	}
	sec.Body, err = render("coverage", v)
	return sec, err
}

func covTargetView(name string, ts *covgate.TargetSummary, l linker) (covTarget, []string) {
	t := covTarget{Name: name, Kind: ts.Kind, CorpusFiles: ts.CorpusFiles, Error: ts.Error,
		Scope: "gated set", WholeScope: "whole library", Files: strings.Join(ts.Files, "\n")}
	if ts.Kind == covgate.KindGo {
		t.WholeScope = "all Go code"
	}
	if n := len(ts.Files); n > 0 {
		t.Scope = fmt.Sprintf("gated set (%d files)", n)
	}
	if len(ts.Functions) > 0 {
		t.Scope += ", only_functions"
		t.Files += "\nonly_functions: " + strings.Join(ts.Functions, " ")
	}
	broken := map[string]bool{}
	for _, b := range ts.Broken {
		broken[b.Metric] = true
		t.Broken = append(t.Broken, b.String())
	}
	for _, m := range covgate.Metrics {
		t.Gate = append(t.Gate, cell(ts.Gate, m, broken[m]))
		t.Whole = append(t.Whole, cell(ts.Whole, m, false))
	}
	switch {
	case ts.Error != "":
		t.Verdict, t.Class = "error", "fail"
	case len(ts.Broken) > 0:
		t.Verdict, t.Class = "failed", "fail"
	default:
		t.Verdict, t.Class = "pass", "pass"
	}
	var warns []string
	for _, r := range reportNames {
		p, ok := ts.Reports[r.key]
		if !ok {
			continue
		}
		rel := path.Join("coverage", filepath.ToSlash(p))
		if h := l.href(rel); h != "" {
			t.Links = append(t.Links, link{r.name, h})
		} else if ts.Error == "" {
			warns = append(warns, rel+": listed in coverage/summary.json but missing")
		}
	}
	return t, warns
}

// cell formats one metric; a metric with nothing to count (Go has no branches) is "—".
func cell(table map[string]covgate.Metric, metric string, broken bool) covCell {
	m, ok := table[metric]
	if !ok || m.Total == 0 {
		return covCell{Pct: "—", Class: "na"}
	}
	c := covCell{Pct: fmtPct(m.Percent), Counts: fmtInt(int64(m.Covered)) + " / " + fmtInt(int64(m.Total))}
	if m.Threshold != nil {
		c.Threshold = fmtPct(*m.Threshold)
		c.Class = "pass"
		if broken || m.Percent < *m.Threshold {
			c.Class = "fail"
		}
	}
	return c
}
