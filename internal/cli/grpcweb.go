package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/wirelab/wirelab/internal/grpcwebsuite"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/profile"
)

// runGrpcweb runs the gRPC-web conversion matrix: chain x server x client x case, each cell
// through the sim on one profile, every converter chain compared with the direct one.
func runGrpcweb(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "grpcweb", "")
	mf := fs.matrixFlags("grpcweb", fmt.Sprintf("run each cell `N` times (1..%d), repetition i in <server>@<chain>_<client>/<case>/r<i>/ "+
		"with its own seed; results.jsonl and junit.xml get the pass rate k/N and flaky when 0 < k < N", matrix.MaxRepeat))
	opts := mf.run
	chainsFlag := fs.String("chains", "", "comma-separated chains (default: all in the chains file; direct, the oracle, always runs)")
	casesFlag := fs.String("cases", "", "comma-separated cases (default: all in the cases file but the bench; --cases bench runs the benchmark)")
	serversFlag := fs.String("servers", "", "comma-separated servers (default: every image with the grpcweb server role)")
	clientsFlag := fs.String("clients", "", "comma-separated clients (default: every image with the grpcweb client role)")
	profileFlag := fs.String("profile", "ideal", "sim profile `reference` for every cell")
	defaultChains := filepath.Join(e.root, "conformance", "grpcweb", "chains.yml")
	defaultCases := filepath.Join(e.root, "conformance", "grpcweb", "cases.yml")
	chainsFile := fs.String("chains-file", defaultChains, "the chains `file`")
	casesFile := fs.String("cases-file", defaultCases, "the cases `file`")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	seed, err := mf.check(func() string { return filepath.Join(opts.Out, "grpcweb", opts.ID) })
	if err != nil {
		return err
	}

	// All input is validated before anything starts.
	var m grpcwebsuite.Matrix
	allChains, err := grpcwebsuite.LoadChains(*chainsFile)
	if err != nil {
		return badInputf("%v", err)
	}
	m.Chains = allChains
	if m.Chains, err = selectChains(m.Chains, *chainsFlag); err != nil {
		return badInputf("--chains: %v", err)
	}
	allCases, err := grpcwebsuite.LoadCases(*casesFile)
	if err != nil {
		return badInputf("%v", err)
	}
	m.Cases = allCases
	if m.Cases, err = matrix.Select(m.Cases, *casesFlag, func(c *grpcwebsuite.Case) string { return c.Name }, "case"); err != nil {
		return badInputf("--cases: %v", err)
	}
	if *casesFlag == "" { // the benchmark wants a quiet machine: it runs when named (make grpcweb-bench)
		m.Cases = slices.DeleteFunc(m.Cases, func(c *grpcwebsuite.Case) bool { return c.Kind == grpcwebsuite.KindBench })
	}
	ms, err := manifest.LoadDir(filepath.Join(e.root, "images"))
	if err != nil {
		return err
	}
	byName := func(i grpcwebsuite.Image) string { return i.Name }
	if m.Servers, err = matrix.Select(grpcwebsuite.Images(ms, "server"), *serversFlag, byName, "server"); err != nil {
		return badInputf("--servers: %v", err)
	}
	if m.Clients, err = matrix.Select(grpcwebsuite.Images(ms, "client"), *clientsFlag, byName, "client"); err != nil {
		return badInputf("--clients: %v", err)
	}
	if len(m.Servers) == 0 || len(m.Clients) == 0 {
		return badInputf("no gRPC-web clients or servers to run (images with the grpcweb client/server roles)")
	}
	m.Probes, m.Conformers = grpcwebsuite.Images(ms, "probe"), grpcwebsuite.Images(ms, "conformance")
	baseline, err := mf.loadBaseline(e.root, "grpcweb", grpcwebsuite.Universe(allChains, allCases, ms),
		*chainsFile == defaultChains && *casesFile == defaultCases)
	if err != nil {
		return err
	}
	converters := map[string]string{}
	for _, c := range grpcwebsuite.Images(ms, "converter") {
		converters[c.Name] = c.Ref
	}
	profiles, err := profile.LoadFile(filepath.Join(e.root, "images", "sim", "profiles.yml"))
	if err != nil {
		return badInputf("%v", err)
	}
	resolved, err := profiles.Resolve(*profileFlag)
	if err != nil {
		return badInputf("--profile %s: %v", *profileFlag, err)
	}
	link := resolved.Initial()

	mr, err := e.startMatrix(ctx, mf, seed)
	if err != nil {
		return err
	}
	defer mr.close()
	r, ctx, done := mr.Run, mr.ctx, mr.done
	runner := &grpcwebsuite.Runner{Env: mr.cellEnv(e, seed, nil), Profile: *profileFlag, RTT: link.ToClient.Delay + link.ToServer.Delay,
		Repeat: *mf.repeat, Converters: converters, Getenv: os.Getenv}
	for _, f := range [][3]string{{"--chains-file", *chainsFile, defaultChains}, {"--cases-file", *casesFile, defaultCases}} {
		if f[1] != f[2] {
			runner.RerunFlags += " " + f[0] + " " + f[1]
		}
	}
	fmt.Fprintf(e.stdout, "grpcweb: run %s, seed %d: %d chains, %d cases, %d cells on %s, -j %d -> %s\n",
		r.ID, seed, len(m.Chains), len(m.Cases), len(m.Cells()), *profileFlag, r.Jobs, r.Dir)
	if runner.Only, err = mr.plan(e, mf, runner.PlanCells(m), *mf.repeat); err != nil {
		return err
	}
	start := time.Now()
	results, err := runner.RunMatrix(ctx, m, done)
	if err != nil {
		return mr.journalError(err)
	}
	matrix.SortResults(results)
	sum := grpcwebsuite.Summarize(m, results, *profileFlag)
	sum.StartTime, sum.EndTime, sum.LogDir = float64(start.Unix()), float64(time.Now().Unix()), r.Dir
	if err := writeJSON(filepath.Join(r.Dir, "result.json"), sum); err != nil {
		return err
	}
	var rows []string
	for _, c := range m.Cells() {
		if len(rows) == 0 || rows[len(rows)-1] != c.Server {
			rows = append(rows, c.Server)
		}
	}
	table := func() { matrix.PrintGrid(e.stdout, grpcwebsuite.Columns(m.Cases), rows, results) }
	if err := reportBench(e, r.Dir, results); err != nil {
		return err
	}
	return mr.finish(e, "grpcweb", table, results, *mf.repeat, start, filepath.Join(r.Dir, "result.json"), baseline)
}

// selectChains narrows the chains to names; the direct chain stays, as every chain's oracle.
func selectChains(all []*grpcwebsuite.Chain, names string) ([]*grpcwebsuite.Chain, error) {
	picked, err := matrix.Select(all, names, func(c *grpcwebsuite.Chain) string { return c.Name }, "chain")
	if err != nil || names == "" {
		return picked, err
	}
	for _, c := range picked {
		if c.Direct() {
			return picked, nil
		}
	}
	for _, c := range all {
		if c.Direct() {
			return append([]*grpcwebsuite.Chain{c}, picked...), nil
		}
	}
	return picked, nil
}

// reportBench prints the bench cells' numbers next to the direct chain's and writes them to
// bench.csv in the run folder (nothing when the run had no bench cell).
func reportBench(e *env, dir string, results []matrix.Result) error {
	rows, err := grpcwebsuite.BenchTable(results)
	if err != nil || len(rows) == 0 {
		return err
	}
	grpcwebsuite.PrintBench(e.stdout, rows)
	f, err := os.Create(filepath.Join(dir, "bench.csv"))
	if err != nil {
		return err
	}
	if err := grpcwebsuite.WriteBenchCSV(f, rows); err != nil {
		f.Close()
		return err
	}
	fmt.Fprintf(e.stdout, "bench: %s\n", filepath.Join(dir, "bench.csv"))
	return f.Close()
}
