// Package report writes wirelab's HTML dashboard, out/report/index.html, from the results under
// out/: per registered matrix suite the gate's verdict on its shown run (complete or not,
// regressions against its baseline, expected failures, stale and untriaged entries), the
// matrices of the run with each cell marked as the gate took it, the suite's own blocks
// (measurements, uploads, benchmarks: its reportview), and the cells whose verdict changed
// since the run before (diff-<suite>.html); a page per cell (verdict, sub-cases, rerun command,
// logs, traces, sim stats, a time-sequence chart and tshark's packet list); the fuzzing and
// coverage sections. The suites come from the registry: the report names none. Every link is
// relative, nothing is fetched: it works from file:// and from any static server rooted at out/.
package report

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/reportview"
	"github.com/wirelab/wirelab/internal/tshark"
)

// Options say where the report reads and writes and how much trace work it does.
type Options struct {
	Out    string       // out/: the runs are read from it, the report goes to out/report/
	Root   string       // the repository: the suites' case files (order, descriptions) and baselines
	Traces string       // which cells get the trace summaries: all, failed or none
	Tshark *tshark.Tool // the packet lists' tshark (nil: none)
	// Baselines name the baseline that judges a suite's run (suite -> file, or none), over what
	// the report finds itself (baselineFor).
	Baselines map[string]string
	Progress  io.Writer // progress lines (nil: quiet)
	Now       time.Time
}

// suiteRun is a shown run with its cells, as its suite judged them, and the gate's verdict.
type suiteRun struct {
	suite    *shown
	run      *Run
	verdicts []matrix.Result // the run's results after the suite's judgment over the run
	cells    []*Cell
	gate     gate
}

// Generate writes the report for the selected runs and returns the path of index.html.
func Generate(ctx context.Context, sel *Selection, o Options) (string, error) {
	dir := filepath.Join(o.Out, "report")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := writeAsset(dir, "style.css"); err != nil {
		return "", err
	}
	var runs []*suiteRun
	var all []*Cell
	for _, s := range sel.suites {
		r := sel.Runs[s.name]
		if r == nil {
			continue
		}
		sr := &suiteRun{suite: s, run: r, verdicts: s.view.Verdicts(r.Results)}
		sr.cells = runCells(r, sr.verdicts, s.view, dir)
		sr.gate = judge(o, s, r, sr.verdicts, pagesOf(sr.cells))
		runs = append(runs, sr)
		all = append(all, sr.cells...)
		o.progress("report: %s run %s: %d cells, %s\n", s.name, r.ID, len(sr.cells), sr.gate.Verdict)
	}
	if err := pruneCellPages(dir, sel); err != nil {
		return "", err
	}
	infos := traceInfos(ctx, o, dir, all)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	start := time.Now()
	for _, sr := range runs {
		for _, c := range sr.cells {
			if err := writePage(filepath.Join(dir, filepath.FromSlash(c.Page)), "cell.html", cellPageData(o.Out, sr, c, infos[c])); err != nil {
				return "", err
			}
		}
	}
	o.progress("report: %d cell pages in %s\n", len(all), time.Since(start).Round(100*time.Millisecond))
	idx := indexPage{Generated: o.Now.UTC().Format("2006-01-02 15:04:05 UTC"), Out: o.Out, Script: filterScript()}
	for _, sr := range runs {
		sec, group, err := suiteSectionFor(sel, o, dir, sr)
		if err != nil {
			return "", err
		}
		idx.Suites = append(idx.Suites, sec)
		idx.Nav = append(idx.Nav, navItem{sec.ID, sec.Title})
		idx.CaseGroups = append(idx.CaseGroups, group)
		idx.Gates = append(idx.Gates, gateLink{ID: sec.ID, Title: sec.Title, Verdict: sr.gate.Verdict, Class: sr.gate.Class, Line: sr.gate.Line})
	}
	for _, x := range extraSections(o) {
		idx.Extra = append(idx.Extra, x)
		idx.Nav = append(idx.Nav, navItem{x.ID, x.Title})
	}
	for _, s := range sel.suites {
		if sel.Runs[s.name] == nil {
			idx.Missing = append(idx.Missing, s.name)
		}
	}
	index := filepath.Join(dir, "index.html")
	if err := writePage(index, "index.html", idx); err != nil {
		return "", err
	}
	return index, nil
}

func (o Options) progress(format string, a ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format, a...)
	}
}

// suiteSectionFor builds a suite's dashboard section (and writes its diff page) and its group
// of the case filter.
func suiteSectionFor(sel *Selection, o Options, dir string, sr *suiteRun) (suiteSection, caseGroup, error) {
	r, s := sr.run, sr.suite
	cases := suiteCases(s.view.Cases(o.Root), sr.verdicts)
	sec := suiteSection{ID: r.Suite, Title: s.title(), Run: r.ID, RunHref: "../" + escapePath(r.Suite+"/"+r.ID) + "/",
		Counts: counts(sr.verdicts), Legend: s.view.Legend(), Gate: sr.gate}
	was := map[string]string{}
	pages := pagesOf(sr.cells)
	if old := sel.Diffs[r.Suite]; old != nil {
		d := Diff(&Run{RunRef: old.RunRef, Dir: old.Dir, Results: s.view.Verdicts(old.Results)}, &Run{RunRef: r.RunRef, Results: sr.verdicts}, pages)
		for _, ch := range d.Changed {
			was[ch.New.Key()] = ch.Old.Result
		}
		name := "diff-" + r.Suite + ".html"
		if err := writePage(filepath.Join(dir, name), "diff.html", diffPage{Title: fmt.Sprintf("%s: %s against %s", s.title(), r.ID, old.ID),
			Suite: r.Suite, SuiteTitle: s.title(), D: d}); err != nil {
			return sec, caseGroup{}, err
		}
		sec.Diff = &diffLink{Href: name, Text: fmt.Sprintf("%s verdict since %s (outlined)", plural(len(d.Changed), "result changed its", "results changed their"), old.ID)}
	} else {
		_ = os.Remove(filepath.Join(dir, "diff-"+r.Suite+".html"))
		if len(sel.Notes[r.Suite]) == 0 {
			sec.Notes = append(sec.Notes, "No earlier run of this suite to compare with.")
		}
	}
	sec.Notes = append(sec.Notes, sel.Notes[r.Suite]...)
	sec.Tables = matrixTables(r.Suite, s.view.Layout(r.Results), cases, sr.cells, was, sr.gate)
	in := reportview.Input{ID: r.ID, Dir: r.Dir, Root: o.Root, RunHref: sec.RunHref, Results: r.Results, Verdicts: sr.verdicts, Cases: cases,
		Page: func(res matrix.Result) string { return pages[res.Key()] }}
	for _, ref := range sel.Others[r.Suite] {
		in.Others = append(in.Others, reportview.Folder{ID: ref.ID, Dir: filepath.Join(sel.Out, ref.Suite, ref.ID)})
	}
	sec.Blocks = blocksOf(s.view.Blocks(in))
	group := caseGroup{Label: s.title()}
	for _, k := range cases {
		text := k.Name
		if k.Abbr != "" {
			text += " (" + k.Abbr + ")"
		}
		group.Options = append(group.Options, caseOption{k.Name, text})
	}
	return sec, group, nil
}

type diffPage struct {
	Title, Suite, SuiteTitle string
	D                        DiffResult
}

// pruneCellPages removes the page folders of runs the report no longer shows, and the caches of
// runs that are gone from out/ (a cache of a run still there stays: showing it again is quick).
func pruneCellPages(dir string, sel *Selection) error {
	for _, s := range sel.suites {
		suite := s.name
		entries, _ := os.ReadDir(filepath.Join(dir, "cells", suite))
		for _, e := range entries {
			if r := sel.Runs[suite]; r == nil || r.ID != e.Name() {
				if err := os.RemoveAll(filepath.Join(dir, "cells", suite, e.Name())); err != nil {
					return err
				}
			}
		}
		entries, _ = os.ReadDir(filepath.Join(dir, "cache", suite))
		for _, e := range entries {
			if !fileExists(journal(sel.Out, RunRef{suite, e.Name()})) {
				if err := os.RemoveAll(filepath.Join(dir, "cache", suite, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
