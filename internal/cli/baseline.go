package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/run"
	suitepkg "github.com/wirelab/wirelab/internal/suite"
)

// runBaseline writes a suite's baseline (conformance/<suite>/expected.yml) from a run: every
// failed cell becomes an entry, keeping an old entry's reason, and old entries for cells the run
// did not cover stay.
func runBaseline(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "baseline", "")
	suite := fs.String("suite", "", "the suite: "+strings.Join(e.suites.Names(), ", "))
	id := fs.String("run-id", "", "the run to take the failed cells from (out/<suite>/<run-id>/results.jsonl)")
	out := fs.String("out", "out", "the output `folder` the run wrote to")
	file := fs.String("file", "", "the baseline `file` to write (default conformance/<suite>/expected.yml)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return badInputf("unexpected argument %q", fs.Arg(0))
	case e.suites.Find(*suite) == nil:
		return badInputf("--suite %q: want one of %s", *suite, strings.Join(e.suites.Names(), ", "))
	case !run.ValidID(*id):
		return badInputf("--run-id %q: not a valid run id", *id)
	}
	journal := filepath.Join(*out, *suite, *id, "results.jsonl")
	results, err := matrix.ReadResults(journal)
	if err != nil {
		return badInputf("--run-id %s: %v", *id, err)
	}
	if rv, ok := e.suites.Find(*suite).(suitepkg.Reverdicter); ok {
		results = rv.Reverdict(results)
	}
	if *file == "" {
		*file = filepath.Join(e.root, "conformance", *suite, "expected.yml")
	}
	var old *matrix.Baseline
	if _, err := os.Stat(*file); err == nil {
		if old, err = matrix.LoadBaseline(*file, matrix.Universe{}); err != nil {
			return badInputf("%v", err)
		}
	}
	ch, err := matrix.WriteBaseline(*file, results, old)
	if err != nil {
		return err
	}
	b, err := matrix.LoadBaseline(*file, matrix.Universe{})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "baseline: %s: %d entries from %s (%d results): %d new, %d kept, %d pruned (passed %d runs in a row), "+
		"%d carried over (not in the run); %d untriaged (raw failures as reasons: write the findings, drop untriaged)\n",
		*file, len(b.Expected), journal, len(results), ch.Added, ch.Kept, ch.Pruned, matrix.PruneAfter, ch.Carried, ch.Untriaged)
	return nil
}
