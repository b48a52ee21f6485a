// Package report writes wirelab's HTML dashboard, out/report/index.html, from the results under
// out/: per matrix suite (QUIC, h2, gRPC-web) the matrices of its shown run with the cases'
// letters, its measurements, uploads or benchmark, and the cells whose verdict changed since the
// run before (diff-<suite>.html); a page per cell (verdict, rerun command, logs, traces, sim
// stats, a time-sequence chart and tshark's packet list); the fuzzing and coverage sections.
// Every link is relative, nothing is fetched: it works from file:// and from any static server
// rooted at out/.
package report

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/wirelab/wirelab/internal/grpcwebsuite"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/tshark"
)

// Options say where the report reads and writes and how much trace work it does.
type Options struct {
	Out      string       // out/: the runs are read from it, the report goes to out/report/
	Root     string       // the repository: the suites' case files give the cases' order and descriptions
	Traces   string       // which cells get the trace summaries: all, failed or none
	Tshark   *tshark.Tool // the packet lists' tshark (nil: none)
	Progress io.Writer    // progress lines (nil: quiet)
	Now      time.Time
}

// suiteRun is a shown run with its cells.
type suiteRun struct {
	run   *Run
	cells []*Cell
	own   map[string]*matrix.Result // gRPC-web: each cell's own outcome, before the comparison with direct
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
	for _, suite := range Suites {
		r := sel.Runs[suite]
		if r == nil {
			continue
		}
		sr := &suiteRun{run: r, cells: runCells(verdicts(r), dir)}
		if suite == SuiteGrpcweb {
			sr.own = map[string]*matrix.Result{}
			for i := range r.Results {
				sr.own[r.Results[i].Key()] = &r.Results[i]
			}
		}
		runs = append(runs, sr)
		all = append(all, sr.cells...)
		o.progress("report: %s run %s: %d cells\n", suite, r.ID, len(sr.cells))
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
			var own *matrix.Result
			if sr.own != nil {
				own = sr.own[c.R.Key()]
			}
			if err := writePage(filepath.Join(dir, filepath.FromSlash(c.Page)), "cell.html", cellPageData(o.Out, c, own, infos[c])); err != nil {
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
	}
	for _, x := range extraSections(o) {
		idx.Extra = append(idx.Extra, x)
		idx.Nav = append(idx.Nav, navItem{x.ID, x.Title})
	}
	index := filepath.Join(dir, "index.html")
	if err := writePage(index, "index.html", idx); err != nil {
		return "", err
	}
	return index, nil
}

// verdicts is a run with the verdicts its result.json and junit.xml carry: a gRPC-web chain's
// cells held to the direct chain's (results.jsonl keeps each cell's own outcome); the run itself
// for the other suites.
func verdicts(r *Run) *Run {
	if r.Suite != SuiteGrpcweb {
		return r
	}
	cp := *r
	cp.Results = grpcwebsuite.CompareWithDirect(r.Results)
	return &cp
}

func (o Options) progress(format string, a ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format, a...)
	}
}

// suiteSectionFor builds a suite's dashboard section (and writes its diff page) and its group
// of the case filter.
func suiteSectionFor(sel *Selection, o Options, dir string, sr *suiteRun) (suiteSection, caseGroup, error) {
	r := sr.run
	cases := suiteCases(r.Suite, o.Root, r.Results)
	sec := suiteSection{ID: r.Suite, Title: suiteTitles[r.Suite], Run: r.ID, RunHref: "../" + escapePath(r.Suite+"/"+r.ID) + "/",
		Counts: counts(cellResults(sr.cells)), Legend: legends[r.Suite]}
	was := map[string]string{}
	if old := sel.Diffs[r.Suite]; old != nil {
		pages := map[string]string{}
		for _, c := range sr.cells {
			pages[c.R.Key()] = c.Page
		}
		d := Diff(verdicts(old), &Run{RunRef: r.RunRef, Results: cellResults(sr.cells)}, pages)
		for _, ch := range d.Changed {
			was[ch.New.Key()] = ch.Old.Result
		}
		name := "diff-" + r.Suite + ".html"
		if err := writePage(filepath.Join(dir, name), "diff.html", diffPage{Title: fmt.Sprintf("%s: %s against %s", suiteTitles[r.Suite], r.ID, old.ID),
			Suite: r.Suite, SuiteTitle: suiteTitles[r.Suite], D: d}); err != nil {
			return sec, caseGroup{}, err
		}
		sec.Diff = &diffLink{Href: name, Text: fmt.Sprintf("%d cells changed verdict since %s (outlined)", len(d.Changed), old.ID)}
	} else {
		_ = os.Remove(filepath.Join(dir, "diff-"+r.Suite+".html"))
		if len(sel.Notes[r.Suite]) == 0 {
			sec.Notes = append(sec.Notes, "No earlier run of this suite to compare with.")
		}
	}
	sec.Notes = append(sec.Notes, sel.Notes[r.Suite]...)
	var direct map[string]matrix.Result
	if r.Suite == SuiteGrpcweb {
		direct = grpcwebDirect(r.Results)
	}
	sec.Tables = matrixTables(r.Suite, cases, sr.cells, was, direct)
	switch r.Suite {
	case SuiteQUIC:
		sec.Blocks = quicMeasurements(cases, sr.cells)
	case SuiteH2:
		sec.Blocks = h2Uploads(r, o.Root)
	case SuiteGrpcweb:
		sec.Blocks = grpcwebBench(sel.Bench)
	}
	group := caseGroup{Label: suiteTitles[r.Suite]}
	for _, k := range cases {
		text := k.Name
		if k.Abbr != "" {
			text += " (" + k.Abbr + ")"
		}
		group.Options = append(group.Options, caseOption{k.Name, text})
	}
	return sec, group, nil
}

var legends = map[string]string{
	SuiteQUIC: "One table per test case: rows are clients, columns servers; the letter is the case's (upstream's abbreviations). " +
		"Green succeeded, red failed, grey unsupported, · not run; ~k/N: k of N repetitions passed (flaky).",
	SuiteH2: "One table per section: rows are servers, the column the client program that ran it. " +
		"Green succeeded, red failed, grey unsupported, · not run; ~k/N: k of N repetitions passed (flaky).",
	SuiteGrpcweb: "One table per case: rows are server@chain (the direct chain first: the oracle), columns the client and, beside it, " +
		"the direct chain's own outcome for the same server, client and case. A verdict is the chain's outcome held to direct's " +
		"(as result.json): a chain that fails where direct passes, or passes where direct fails, failed.",
}

type diffPage struct {
	Title, Suite, SuiteTitle string
	D                        DiffResult
}

func cellResults(cells []*Cell) []matrix.Result {
	out := make([]matrix.Result, len(cells))
	for i, c := range cells {
		out[i] = c.R
	}
	return out
}

// pruneCellPages removes the page folders of runs the report no longer shows, and the caches of
// runs that are gone from out/ (a cache of a run still there stays: showing it again is quick).
func pruneCellPages(dir string, sel *Selection) error {
	for _, suite := range Suites {
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
