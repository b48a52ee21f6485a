package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/wirelab/wirelab/internal/report"
	"github.com/wirelab/wirelab/internal/tshark"
)

// runReport is `wirelab report` (make report): the HTML dashboard out/report/index.html from the
// results under out/ — each matrix suite's latest run (or the runs --runs names) compared with
// the run before (or --diff), a page per cell, the fuzzing and coverage sections.
func runReport(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "report", "")
	out := fs.String("out", filepath.Join(e.root, "out"), "the output `folder`: runs are read from <out>/<suite>/<run-id>/, the report written to <out>/report/")
	runs := fs.String("runs", "", "the runs to show, `suite/run-id,...` (quic, h2, grpcweb; default: each suite's latest run, by when its results.jsonl was written)")
	diff := fs.String("diff", "", "the runs to compare with, `suite/run-id,...` (default: each suite's run before the one shown; none: no comparison)")
	traces := fs.String("traces", report.TracesAll, "which cells get a packet list (tshark, one container for all) and a time-sequence chart: `all`, failed or none")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInputf("unexpected argument %q (flags only; see report -h)", fs.Arg(0))
	}
	switch *traces {
	case report.TracesAll, report.TracesFailed, report.TracesNone:
	default:
		return badInputf("--traces %q: want all, failed or none", *traces)
	}
	if *out == "" {
		return badInputf("--out: empty")
	}
	runRefs, err := report.ParseRunRefs(*runs)
	if err != nil {
		return badInputf("--runs %v", err)
	}
	var diffRefs []report.RunRef
	noDiff := *diff == "none"
	if !noDiff {
		if diffRefs, err = report.ParseRunRefs(*diff); err != nil {
			return badInputf("--diff %v", err)
		}
	}
	sel, err := report.Select(*out, runRefs, diffRefs, noDiff)
	if err != nil {
		return badInputf("%v", err)
	}
	start := time.Now()
	index, err := report.Generate(ctx, sel, report.Options{Out: *out, Root: e.root, Traces: *traces,
		Tshark: &tshark.Tool{Docker: e.docker}, Progress: e.stdout, Now: start})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "report: %s (%s)\n", index, time.Since(start).Round(100*time.Millisecond))
	return nil
}
