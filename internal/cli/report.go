package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/report"
	"github.com/wirelab/wirelab/internal/tshark"
)

// runReport is `wirelab report` (make report): the HTML dashboard out/report/index.html from the
// results under out/ — each registered suite's latest run (or the runs --runs names) with the
// gate's verdict on it, compared with the run before (or --diff), a page per cell, the fuzzing
// and coverage sections.
func runReport(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "report", "")
	out := fs.String("out", filepath.Join(e.root, "out"), "the output `folder`: runs are read from <out>/<suite>/<run-id>/, the report written to <out>/report/")
	names := strings.Join(e.suites.Names(), ", ")
	runs := fs.String("runs", "", "the runs to show, `suite/run-id,...` ("+names+"; default: each suite's latest run, by when its results.jsonl was written)")
	diff := fs.String("diff", "", "the runs to compare with, `suite/run-id,...` (default: each suite's run before the one shown; none: no comparison)")
	traces := fs.String("traces", report.TracesAll, "which cells get a packet list (tshark, one container for all) and a time-sequence chart: `all`, failed or none")
	baselines := fs.String("baseline", "", "the baseline that judges a suite's run, `suite=file,...` (none: no baseline) (default: a --baseline "+
		"the run's run.json records, else conformance/<suite>/expected.yml when the run used the suite's own data files)")
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
	named, err := parseBaselines(*baselines, e.suites.Names())
	if err != nil {
		return badInputf("--baseline %v", err)
	}
	runRefs, err := report.ParseRunRefs(*runs, e.suites.Names())
	if err != nil {
		return badInputf("--runs %v", err)
	}
	var diffRefs []report.RunRef
	noDiff := *diff == "none"
	if !noDiff {
		if diffRefs, err = report.ParseRunRefs(*diff, e.suites.Names()); err != nil {
			return badInputf("--diff %v", err)
		}
	}
	sel, err := report.Select(*out, e.suites, runRefs, diffRefs, noDiff)
	if err != nil {
		return badInputf("%v", err)
	}
	start := time.Now()
	index, err := report.Generate(ctx, sel, report.Options{Out: *out, Root: e.root, Traces: *traces, Baselines: named,
		Tshark: &tshark.Tool{Docker: e.docker}, Progress: e.stdout, Now: start})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "report: %s (%s)\n", index, time.Since(start).Round(100*time.Millisecond))
	return nil
}

// parseBaselines parses --baseline suite=file,...: a registered suite, each once, and a file that
// exists (or none).
func parseBaselines(list string, suites []string) (map[string]string, error) {
	out := map[string]string{}
	for _, item := range strings.Split(list, ",") {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		name, file, ok := strings.Cut(item, "=")
		switch {
		case !ok || !slices.Contains(suites, name) || file == "":
			return nil, fmt.Errorf("%q: want suite=file (or suite=none) with suite one of %s", item, strings.Join(suites, ", "))
		case out[name] != "":
			return nil, fmt.Errorf("%q: a second baseline for %s", item, name)
		}
		if file != "none" {
			if _, err := os.Stat(file); err != nil {
				return nil, fmt.Errorf("%q: %v", item, err)
			}
		}
		out[name] = file
	}
	return out, nil
}
