package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/profile"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/topology"
)

// runSuite is the one path every registered suite runs through: flags, input checked before
// anything starts, the plan (and nothing more with --plan), the run with its journal, shards,
// resume and repetitions, each cell through the one lifecycle, then result.json, junit.xml, the
// table and the baseline's verdict.
func runSuite(ctx context.Context, e *env, s suite.Suite, args []string) error {
	info := s.Info()
	fs := newFlags(e, info.Name, "")
	mf := fs.matrixFlags(info)
	s.Flags(fs.FlagSet, e.root)
	fs.Bool("flags-from-env", false, "also take each flag from the environment variable of its name in capitals, - as _ "+
		"(SERVERS=nginx, RUN_ID=x, J=4, RESUME=1): how `make "+info.Make+" SERVERS=nginx` passes its variables")
	if slices.Contains(args, "--flags-from-env") {
		args = append(envArgs(fs, os.Getenv), args...)
	}
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInputf("unexpected argument %q (see wirelab %s -h)", fs.Arg(0), info.Name)
	}
	seed, err := mf.check(info, func() string { return filepath.Join(mf.run.Out, info.Name, mf.run.ID) })
	if err != nil {
		return err
	}

	// All input is checked before anything starts.
	m, err := loadSuite(e, s, mf)
	if err != nil {
		return err
	}
	baseline, err := mf.loadBaseline(e.root, info.Name, m.Universe(), m.OwnData())
	if err != nil {
		return err
	}
	cells := m.Cells()
	if *mf.planOnly {
		return printPlanOnly(e, info, mf, m, cells, baseline)
	}
	if *mf.buildImages > 0 {
		return e.buildSuiteImages(ctx, info.Name, m.Images(), mf.run.Out, *mf.buildImages)
	}

	_, inProcess := m.(suite.InProcess)
	mr, err := e.startMatrix(ctx, mf, seed, !inProcess)
	if err != nil {
		return err
	}
	defer mr.close()
	ctx = mr.ctx
	fmt.Fprintf(e.stdout, "%s: run %s, seed %d: %s, -j %d -> %s\n", info.Name, mr.ID, seed, m.Describe(), mr.Jobs, mr.Dir)
	plan, only, err := mr.plan(e, mf, cells, *mf.repeat)
	if err != nil {
		return err
	}
	r := &suite.Run{Env: lifecycle.Env{Run: mr.Run, Compose: mr.compose, Root: e.root, Alloc: &topology.Allocator{}},
		Seed: seed, CertsDir: mr.certDir, Progress: e.stdout}
	start := time.Now()
	if err := m.Before(ctx, r, todo(plan, mr.done, only, mf.merging)); err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	pool := &matrix.Pool{Dir: mr.Dir, Jobs: mr.Jobs, Journal: mr.journal, Progress: e.stdout, Only: only, Details: info.Details}
	byKey := map[string]matrix.PlanCell{}
	var order []matrix.Cell
	for _, c := range plan {
		byKey[c.Key()], order = c, append(order, c.Cell)
	}
	results, err := pool.Run(ctx, order, mr.done, func(ctx context.Context, c matrix.Cell) matrix.Result {
		return runCell(ctx, m, r, byKey[c.Key()], *mf.repeat)
	})
	if err != nil { // the journal could not keep a result: nothing more can be written reliably
		return mr.journalError(err)
	}
	if results, err = m.After(ctx, r, results); err != nil {
		return err
	}
	matrix.SortResults(results)
	done := matrix.Measure(plan, results)
	sum := filepath.Join(mr.Dir, "result.json")
	if err := writeSummary(sum, m.Summary(r, results), start, mr.Dir, done); err != nil {
		return err
	}
	table := func() { m.PrintTable(e.stdout, r, results) }
	return mr.finish(e, info.Name, table, results, done, *mf.repeat, start, sum, baseline)
}

// envArgs are the flags set in the environment (--flags-from-env): each flag's variable is its
// name in capitals with - as _; a boolean is set by any value but 0/false, a repeatable flag
// takes a space-separated list.
func envArgs(fs *flagSet, getenv func(string) string) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "flags-from-env" || f.Name == "out" || f.Name == "build-images" {
			return
		}
		v := strings.TrimSpace(getenv(strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))))
		if v == "" {
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			v = strconv.FormatBool(v != "0" && v != "false")
		}
		if _, repeatable := f.Value.(interface{ Repeatable() }); repeatable {
			for _, item := range strings.Fields(v) {
				out = append(out, "--"+f.Name+"="+item)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+v)
	})
	return out
}

// loadSuite reads the manifests (and --image), the sim's profiles and the suite's own input.
func loadSuite(e *env, s suite.Suite, mf matrixFlags) (suite.Matrix, error) {
	ms, err := e.manifests()
	if err != nil {
		return nil, err
	}
	for _, ref := range *mf.images {
		m, err := manifest.FromImageRef(ref, s.Info().Name, s.Info().Roles)
		if err != nil {
			return nil, badInputf("--image %v", err)
		}
		ms = append(ms, m)
	}
	profiles, err := profile.LoadFile(filepath.Join(e.root, "images", "sim", "profiles.yml"))
	if err != nil {
		return nil, badInputf("%v", err)
	}
	m, err := s.Load(suite.Input{Root: e.root, Manifests: ms, Profiles: profiles, Repeat: *mf.repeat, Getenv: os.Getenv})
	var bad suite.BadInput
	var mErr *manifest.Error
	switch {
	case errors.As(err, &bad):
		return nil, badInputf("%s", bad.Msg)
	case errors.As(err, &mErr):
		return nil, err
	case err != nil:
		return nil, badInputf("%v", err)
	}
	return m, nil
}

// runCell runs one cell: unsupported when the manifests rule it out, else its repetitions as its
// policy says, each through the lifecycle, and the suite's combination of them.
func runCell(ctx context.Context, m suite.Matrix, r *suite.Run, pc matrix.PlanCell, repeat int) matrix.Result {
	start := time.Now()
	dir := filepath.Join(r.Run.Dir, pc.Path())
	res := matrix.Result{Cell: pc.Cell, Result: matrix.Failed, Dir: dir}
	if pc.Skip {
		res.Result, res.Reason = matrix.Unsupported, pc.Why
		return res
	}
	res = matrix.Repeat(ctx, pc.Policy.Or(repeat), r.Seed, dir, res, func(ctx context.Context, seed uint64, dir string) matrix.Result {
		return runOnce(ctx, m, r, pc.Cell, seed, dir)
	})
	if c, ok := m.(suite.Combiner); ok && ctx.Err() == nil {
		res = c.Combine(r, res)
	}
	res.Seconds = time.Since(start).Round(100 * time.Millisecond).Seconds()
	return res
}

// runOnce runs one repetition of a cell in dir, from scratch (--resume reruns it whole).
func runOnce(ctx context.Context, m suite.Matrix, r *suite.Run, c matrix.Cell, seed uint64, dir string) matrix.Result {
	_ = os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return matrix.Result{Result: matrix.Failed, Reason: err.Error()}
	}
	if p, ok := m.(suite.InProcess); ok {
		return p.RunOnce(ctx, r, c, seed, dir)
	}
	layout, err := m.Layout(ctx, r, c, seed, dir)
	if why, ok := lifecycle.IsUnsupported(err); ok {
		return matrix.Result{Result: matrix.Unsupported, Reason: why, Rerun: layout.Rerun}
	}
	if err != nil {
		return matrix.Result{Result: matrix.Failed, Reason: err.Error(), Rerun: layout.Rerun}
	}
	return lifecycle.Run(ctx, r.Env, dir, layout, func(ctx context.Context, ev lifecycle.Evidence) matrix.Result {
		return m.Verdict(ctx, r, c, ev)
	})
}

// todo are the cells this invocation runs: not done, in this shard, none when merging.
func todo(plan []matrix.PlanCell, done []matrix.Result, only map[string]bool, merging bool) []matrix.Cell {
	if merging {
		return nil
	}
	have := map[string]bool{}
	for _, d := range done {
		have[d.Key()] = true
	}
	var out []matrix.Cell
	for _, c := range plan {
		if k := c.Key(); !have[k] && !c.Skip && (only == nil || only[k]) {
			out = append(out, c.Cell)
		}
	}
	return out
}

// printPlanOnly is --plan: the plan a run would follow, with the images it needs and the baseline
// that would judge it, and nothing started.
func printPlanOnly(e *env, info suite.Info, mf matrixFlags, m suite.Matrix, cells []matrix.PlanCell, b *matrix.Baseline) error {
	fmt.Fprintf(e.stdout, "%s: %s, -j %d (--plan: nothing is started)\n", info.Name, m.Describe(), mf.run.Jobs)
	plan, _, err := mf.shardPlan(e.stdout, cells, nil)
	if err != nil {
		return err
	}
	dir := filepath.Join(mf.run.Out, info.Name, "<run-id>")
	matrix.PrintPlan(e.stdout, matrix.EstimatePlan(plan, nil, *mf.repeat, mf.run.Jobs, matrix.LoadHistory(filepath.Join(mf.run.Out, info.Name))), dir)
	fmt.Fprintf(e.stdout, "plan: images: %s\n", strings.Join(m.Images(), " "))
	if b != nil {
		fmt.Fprintf(e.stdout, "plan: baseline %s: %d entries\n", b.Path, len(b.Expected))
	} else {
		fmt.Fprintln(e.stdout, "plan: no baseline: every failed cell fails the run")
	}
	return nil
}

// writeSummary writes result.json: the suite's summary with the run's times and folder, and
// whether the run judged its whole plan ("complete", "planned", "ran").
func writeSummary(path string, sum any, start time.Time, dir string, done matrix.Completeness) error {
	type timed interface {
		SetRun(start, end time.Time, dir string)
	}
	if t, ok := sum.(timed); ok {
		t.SetRun(start, time.Now(), dir)
	}
	data, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	fields := map[string]json.RawMessage{}
	if err := json.Unmarshal(data, &fields); err != nil {
		return fmt.Errorf("result.json: the suite's summary is no JSON object: %v", err)
	}
	for k, v := range map[string]any{"complete": done.Complete(), "planned": done.Planned, "ran": done.Ran} {
		fields[k], _ = json.Marshal(v)
	}
	return writeJSON(path, fields)
}
