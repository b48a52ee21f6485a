package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/wirelab/wirelab/internal/certs"
	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/run"
)

// matrixFlags are the flags every matrix suite (quic, h2, ...) shares beyond the run flags.
type matrixFlags struct {
	run    *run.Options
	seed   *string
	resume *bool
	repeat *int
}

func (f *flagSet) matrixFlags(suite, repeatHelp string) matrixFlags {
	return matrixFlags{
		run:    f.runFlags(suite),
		seed:   f.String("seed", "", "seed for files and the sim (default: random, printed)"),
		resume: f.Bool("resume", false, "with --run-id of an interrupted run: run only the cells missing from its results.jsonl"),
		repeat: f.Int("repeat", 1, repeatHelp),
	}
}

// check validates the shared flags and returns the run's seed; runDir is where the run writes.
func (m matrixFlags) check(runDir func() string) (uint64, error) {
	if *m.repeat < 1 || *m.repeat > matrix.MaxRepeat {
		return 0, badInputf("--repeat %d: want 1..%d", *m.repeat, matrix.MaxRepeat)
	}
	if *m.resume && m.run.ID == "" {
		return 0, badInputf("--resume needs the --run-id of the run to complete")
	}
	if err := checkRunFlags(m.run, time.Now()); err != nil {
		return 0, err
	}
	seed := rand.Uint64() >> 1
	if *m.seed != "" {
		var err error
		if seed, err = strconv.ParseUint(*m.seed, 10, 64); err != nil {
			return 0, badInputf("--seed %q: want an unsigned integer", *m.seed)
		}
	}
	if *m.resume {
		if _, err := os.Stat(filepath.Join(runDir(), "results.jsonl")); err != nil {
			return 0, badInputf("--resume: %s has no results.jsonl to resume", runDir())
		}
	}
	return seed, nil
}

// matrixRun is a started matrix run: its labelled run, compose, certificates and journal.
type matrixRun struct {
	*run.Run
	ctx     context.Context
	compose *docker.Compose
	certDir string
	journal *matrix.Journal
	done    []matrix.Result
}

// startMatrix starts the run (engine checked, signals handled), writes the run's certificates
// once and opens its journal with the results already in it (--resume).
func (e *env) startMatrix(ctx context.Context, opts run.Options) (*matrixRun, error) {
	r, ctx, compose, err := e.startRun(ctx, opts)
	if err != nil {
		return nil, err
	}
	m := &matrixRun{Run: r, ctx: ctx, compose: compose, certDir: filepath.Join(r.Dir, "certs")}
	if _, err := os.Stat(filepath.Join(m.certDir, "cert.pem")); err != nil {
		if err := certs.Write(m.certDir); err != nil {
			r.Finish()
			return nil, err
		}
	}
	if m.journal, m.done, err = matrix.OpenJournal(filepath.Join(r.Dir, "results.jsonl")); err != nil {
		r.Finish()
		return nil, err
	}
	return m, nil
}

// close ends the run: the journal, then the run's resources.
func (m *matrixRun) close() {
	m.journal.Close()
	m.Finish()
}

// journalError is the error of a run whose journal could not keep a result.
func (m *matrixRun) journalError(err error) error {
	return &docker.EnvError{Msg: fmt.Sprintf("%v; the run stopped, its journal keeps every cell written before (--run-id %s --resume continues)", err, m.ID)}
}

// finish writes junit.xml, prints the table (the suite's) and the last line, and returns the run's exit:
// interrupted, failed cells, or nil.
func (m *matrixRun) finish(e *env, suite string, table func(), results []matrix.Result, repeat int, start time.Time, summary string) error {
	if err := matrix.WriteJUnit(filepath.Join(m.Dir, "junit.xml"), suite, results); err != nil {
		return err
	}
	table()
	passed, failedN, unsupported := matrix.Counts(results)
	flaky := ""
	if repeat > 1 {
		flaky = fmt.Sprintf(", %d flaky (of %d repetitions each)", matrix.FlakyCount(results), repeat)
	}
	fmt.Fprintf(e.stdout, "\n%s: %d passed, %d failed, %d unsupported%s in %s; %s\n", suite, passed, failedN, unsupported, flaky,
		time.Since(start).Round(time.Second), summary)
	if m.ctx.Err() != nil {
		return errInterrupted
	}
	if failedN > 0 {
		return failed{fmt.Sprintf("%d cells failed", failedN)}
	}
	return nil
}
