package cli

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/certs"
	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/run"
	"github.com/wirelab/wirelab/internal/suite"
)

// matrixFlags are the flags every matrix suite (quic, h2, ...) shares beyond the run flags.
type matrixFlags struct {
	run         *run.Options
	seed        *string
	resume      *bool
	repeat      *int
	baseline    *string
	shard       *string
	planOnly    *bool
	buildImages *int
	strict      *bool
	images      *imageRefs
	part        *matrix.Shard // --shard parsed by check
	fs          *flagSet      // the parsed flags, recorded in run.json for wirelab merge
	merging     bool          // wirelab merge re-summarizes shards' results: no cell may run
}

// imageRefs collects repeated --image NAME=IMAGE[:roles] flags.
type imageRefs []string

func (i *imageRefs) String() string     { return strings.Join(*i, " ") }
func (i *imageRefs) Set(v string) error { *i = append(*i, v); return nil }
func (i *imageRefs) Repeatable()        {}

// defaultRepeatHelp is what --repeat means in a suite that does not say otherwise.
const defaultRepeatHelp = "run each cell `N` times (1..%d), one after the other, repetition i in <cell>/r<i>/ with its own seed " +
	"derived from --seed and i (r1: --seed itself); result.json gets the majority (k > N/2 passed; a tie is failed; any " +
	"unsupported repetition: unsupported), results.jsonl and junit.xml the pass rate k/N and flaky when 0 < k < N; cases with " +
	"a repetition policy of their own (measurements) keep it. --resume counts a cell done only once all its repetitions are journaled"

func (f *flagSet) matrixFlags(info suite.Info) matrixFlags {
	repeatHelp := info.Repeat
	if repeatHelp == "" {
		repeatHelp = fmt.Sprintf(defaultRepeatHelp, matrix.MaxRepeat)
	}
	images := &imageRefs{}
	f.Var(images, "image", "add an implementation by image reference: `NAME=IMAGE[:role,role]` (roles of this suite: "+
		strings.Join(info.Roles, ", ")+"; default client,server) (repeatable)")
	mf := matrixFlags{
		run:    f.runFlags(info.Name),
		seed:   f.String("seed", "", "seed for files and the sim (default: random, printed)"),
		resume: f.Bool("resume", false, "with --run-id of an interrupted run: run only the cells missing from its results.jsonl"),
		repeat: f.Int("repeat", 1, repeatHelp),
		shard: f.String("shard", "", "run only part `i/N` of the matrix (N machines at once; parts balanced by the cases' "+
			"typical seconds, the same on every machine)"),
		part: &matrix.Shard{I: 1, N: 1}, fs: f, merging: f.e.merging,
		baseline: f.String("baseline", "", "the known findings `file`: cells expected to fail or flake (default conformance/"+info.Name+
			"/expected.yml when it exists; none: every failed cell fails the run)"),
		planOnly: f.Bool("plan", false, "print the plan (cells, estimate, images, baseline) after checking every input, and start nothing"),
		buildImages: f.Int("build-images", 0, "build the images this selection starts and what they build FROM, `N` at a time, "+
			"and run nothing (make <suite> does it first)"),
		strict: f.Bool("strict-baseline", false, "also fail on stale baseline entries: cells expected to fail or flake that passed every run "+
			"(CI: a baseline that no longer matches the implementations is as wrong as a regression)"),
		images: images,
	}
	if info.Jobs > 0 {
		mf.run.Jobs, f.Lookup("j").DefValue = info.Jobs, fmt.Sprint(info.Jobs)
	}
	return mf
}

// shardPlan narrows the plan to this machine's part of the matrix (--shard i/N) and returns
// the cells the runner may run (nil: all). Merging shards, no cell runs and every cell of the
// plan must be among the results already there (done).
func (m matrixFlags) shardPlan(w io.Writer, cells []matrix.PlanCell, done []matrix.Result) ([]matrix.PlanCell, map[string]bool, error) {
	if m.merging {
		return cells, map[string]bool{}, planCovered(cells, done)
	}
	if m.part.N == 1 {
		return cells, nil, nil
	}
	only := m.part.Pick(cells)
	var mine []matrix.PlanCell
	for _, c := range cells {
		if only[c.Key()] {
			mine = append(mine, c)
		}
	}
	fmt.Fprintf(w, "shard %d/%d: %d of the matrix's %d cells\n", m.part.I, m.part.N, len(mine), len(cells))
	return mine, only, nil
}

// loadBaseline reads the suite's baseline, checked against the suite's unfiltered names (u): nil
// when there is none or --baseline none. The default file applies only to the suite's own data
// files (ownData): a run on other cases or chains names its baseline. A bad or stale entry is bad
// input.
func (m matrixFlags) loadBaseline(root, suite string, u matrix.Universe, ownData bool) (*matrix.Baseline, error) {
	file := *m.baseline
	switch {
	case file == "none", file == "" && !ownData:
		return nil, nil
	case file == "":
		file = filepath.Join(root, "conformance", suite, "expected.yml")
		if _, err := os.Stat(file); err != nil {
			return nil, nil
		}
	}
	b, err := matrix.LoadBaseline(file, u)
	if err != nil {
		return nil, badInputf("--baseline: %v", err)
	}
	return b, nil
}

// check validates the shared flags and returns the run's seed; runDir is where the run writes.
func (m matrixFlags) check(info suite.Info, runDir func() string) (uint64, error) {
	if *m.repeat < 1 || *m.repeat > matrix.MaxRepeat {
		return 0, badInputf("--repeat %d: want 1..%d", *m.repeat, matrix.MaxRepeat)
	}
	if info.NoRepeat && *m.repeat != 1 {
		return 0, badInputf("--repeat %d: %s", *m.repeat, info.Repeat)
	}
	part, err := matrix.ParseShard(*m.shard)
	if err != nil {
		return 0, badInputf("--shard %v", err)
	}
	*m.part = part
	if *m.resume && m.run.ID == "" {
		return 0, badInputf("--resume needs the --run-id of the run to complete")
	}
	if err := checkRunFlags(m.run, time.Now()); err != nil {
		return 0, err
	}
	seed := rand.Uint64() >> 1
	if *m.seed != "" {
		if seed, err = strconv.ParseUint(*m.seed, 10, 64); err != nil {
			return 0, badInputf("--seed %q: want an unsigned integer", *m.seed)
		}
	}
	if *m.resume && !*m.planOnly {
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
	strict  *bool // --strict-baseline
}

// startMatrix starts the run (engine checked, signals handled), records how it was invoked
// (run.json), writes the run's certificates once and opens its journal with the results already
// in it (--resume).
func (e *env) startMatrix(ctx context.Context, mf matrixFlags, seed uint64, engine bool) (*matrixRun, error) {
	r, ctx, compose, err := e.startRun(ctx, *mf.run, engine)
	if err != nil {
		return nil, err
	}
	if err := writeRunInfo(r.Dir, mf, seed); err != nil {
		r.Finish()
		return nil, err
	}
	m := &matrixRun{Run: r, ctx: ctx, compose: compose, certDir: filepath.Join(r.Dir, "certs"), strict: mf.strict}
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
// interrupted, incomplete, failed cells (with a baseline: failed cells it does not expect), or nil.
func (m *matrixRun) finish(e *env, suite string, table func(), results []matrix.Result, done matrix.Completeness, repeat int,
	start time.Time, summary string, baseline *matrix.Baseline) error {
	if err := matrix.WriteJUnit(filepath.Join(m.Dir, "junit.xml"), suite, done, results); err != nil {
		return err
	}
	table()
	tally := matrix.Count(results)
	flaky := ""
	if repeat > 1 {
		flaky = fmt.Sprintf(", %d flaky (of %d repetitions each)", matrix.FlakyCount(results), repeat)
	}
	fmt.Fprintf(e.stdout, "\n%s: %s%s in %s; %s; %s\n", suite, tally, flaky, time.Since(start).Round(time.Second), done, summary)
	if m.ctx.Err() != nil {
		return errInterrupted
	}
	if !done.Complete() {
		return failed{done.String()}
	}
	if baseline != nil {
		return reportBaseline(e, baseline, results, *m.strict)
	}
	if tally.Failed+tally.RunTime > 0 {
		return failed{fmt.Sprintf("%d cells failed", tally.Failed+tally.RunTime)}
	}
	return nil
}

// reportBaseline holds the run against its baseline: the run fails on regressions (results no
// entry expects as they happened) and, strict, on stale entries (their cells passed every run).
func reportBaseline(e *env, b *matrix.Baseline, results []matrix.Result, strict bool) error {
	rep := b.Compare(results)
	fmt.Fprintf(e.stdout, "baseline %s: %d failed as expected, %d regressions, %d newly passing, %d flaky within their rate, "+
		"%d flaky run once (decide nothing), %d untriaged entries\n", b.Path, len(rep.Expected), len(rep.Regressions),
		len(rep.NewlyPassing), len(rep.FlakyWithin), len(rep.FlakyOnce), len(rep.Untriaged))
	for _, r := range rep.NewlyPassing {
		fmt.Fprintf(e.stdout, "  newly passing (stale entry: make baseline prunes it): %s\n", r.Label())
	}
	for _, r := range rep.Regressions {
		fmt.Fprintf(e.stdout, "  REGRESSION: %s: %s\n", r.Label(), r.Why)
	}
	switch {
	case len(rep.Regressions) > 0:
		return failed{fmt.Sprintf("%d results the baseline does not expect", len(rep.Regressions))}
	case strict && len(rep.NewlyPassing) > 0:
		return failed{fmt.Sprintf("--strict-baseline: %d stale entries (their cells passed)", len(rep.NewlyPassing))}
	}
	return nil
}

// names maps xs to their names (a suite's universe for its baseline).
func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

// plan narrows the cells to this shard (--shard), prints the plan with its time estimate (from
// the suite's earlier runs beside this one) and returns the shard's cells (nil: all).
func (m *matrixRun) plan(e *env, mf matrixFlags, cells []matrix.PlanCell, repeat int) ([]matrix.PlanCell, map[string]bool, error) {
	plan, only, err := mf.shardPlan(e.stdout, cells, m.done)
	if err != nil {
		return nil, nil, err
	}
	matrix.PrintPlan(e.stdout, matrix.EstimatePlan(plan, m.done, repeat, m.Jobs, matrix.LoadHistory(filepath.Dir(m.Dir))), m.Dir)
	return plan, only, nil
}
