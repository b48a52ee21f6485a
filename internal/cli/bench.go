package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/benchsuite"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/profile"
)

// runBench runs the protocol performance testbed: every bench server x protocol (HTTP/1.1, h2,
// h3) x client that speaks it (curl; the QUIC stacks' own clients for h3) x profile, each cell's
// repetitions in topologies of their own, the client downloading every size.
func runBench(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "bench", "")
	mf := fs.matrixFlags("bench", "must be 1: the bench repeats with --reps (each repetition on its own seed)")
	opts := mf.run
	benchFile := fs.String("bench", filepath.Join(e.root, "conformance", "bench", "bench.yml"), "the bench `file`: sizes, protocols, profiles, quick set")
	quick := fs.Bool("quick", false, "the short set of the bench file's quick: entry (servers, profiles, sizes, repetitions); the flags below override it")
	serversFlag := fs.String("servers", "", "comma-separated servers (default: every image with the bench server role)")
	clientsFlag := fs.String("clients", "", "comma-separated clients: curl (h1, h2, h3) and the QUIC stacks' own h3 clients, timed from "+
		"their qlog (default: every image with the bench client role)")
	protosFlag := fs.String("protocols", "", "comma-separated protocols: h1, h2, h3 (default: all in the bench file)")
	profilesFlag := fs.String("profiles", "", "comma-separated sim profiles (default: the bench file's, but those marked optional, e.g. ideal)")
	sizesFlag := fs.String("sizes", "", "comma-separated object sizes, e.g. 1KB,1MB (default: all in the bench file)")
	ccFlag := fs.String("congestion", "", "comma-separated congestion controls of the servers to sweep, e.g. cubic,bbr: each server runs "+
		"once per algorithm as <server>@<algorithm> (default: none, TCP cubic and each QUIC stack's own)")
	gsoFlag := fs.String("gso", "", "comma-separated UDP GSO modes of the servers' QUIC stacks to sweep, on,off: each server runs once per mode "+
		"as <server>@gso-<mode> (with --congestion: <server>@<algorithm>+gso-<mode>), h3 cells only; an image without the switch "+
		"is unsupported (default: none, each image's own)")
	hystartFlag := fs.String("hystart", "", "comma-separated HyStart++ modes of the servers' QUIC CUBIC to sweep, on,off: each server runs once per "+
		"mode as <server>@hystart-<mode> (joined to the others with +: <server>@cubic+hystart-off), h3 cells only; an image without the "+
		"switch is unsupported (default: none, each stack's own; ngtcp2 switches, with a libngtcp2 built without HyStart++)")
	// One cell at a time unless asked: parallel cells share the CPU the timings depend on.
	opts.Jobs, fs.Lookup("j").DefValue = 1, "1"
	reps := fs.Int("reps", 0, fmt.Sprintf("repetitions per cell, 1..%d (default: the bench file's)", benchsuite.MaxRepetitions))
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if *mf.repeat != 1 {
		return badInputf("--repeat %d: the bench repeats with --reps", *mf.repeat)
	}
	seed, err := mf.check(func() string { return filepath.Join(opts.Out, "bench", opts.ID) })
	if err != nil {
		return err
	}

	// All input is validated before anything starts.
	cfg, err := benchsuite.Load(*benchFile)
	if err != nil {
		return badInputf("%v", err)
	}
	ms, err := manifest.LoadDir(filepath.Join(e.root, "images"))
	if err != nil {
		return err
	}
	allServers, allClients := benchsuite.ServersFromManifests(ms), benchsuite.ClientsFromManifests(ms)
	plan, err := cfg.Select(allServers, allClients, benchsuite.Selection{Quick: *quick, Servers: *serversFlag, Clients: *clientsFlag, Protocols: *protosFlag,
		Profiles: *profilesFlag, Sizes: *sizesFlag, Congestion: *ccFlag, GSO: *gsoFlag, HyStart: *hystartFlag, Reps: *reps})
	if err != nil {
		return badInputf("%v", err)
	}
	baseline, err := mf.loadBaseline(e.root, "bench", matrix.Universe{Servers: benchsuite.AllSlots(allServers, cfg.CongestionControls, cfg.GSOModes, cfg.HyStartModes),
		Clients: benchsuite.AllClientNames(allClients, cfg.Protocols),
		Cases:   names(cfg.Profiles, func(p benchsuite.Profile) string { return p.Name })},
		*benchFile == filepath.Join(e.root, "conformance", "bench", "bench.yml"))
	if err != nil {
		return err
	}
	links, err := benchLinks(filepath.Join(e.root, "images", "sim", "profiles.yml"), plan.Profiles)
	if err != nil {
		return badInputf("%v", err)
	}

	m, err := e.startMatrix(ctx, mf, seed)
	if err != nil {
		return err
	}
	defer m.close()
	r, ctx, done := m.Run, m.ctx, m.done
	fmt.Fprintf(e.stdout, "bench: run %s, seed %d: %d servers x %d clients (%s) x %d profiles, sizes %s, %d repetitions, -j %d -> %s\n",
		r.ID, seed, len(plan.Servers), len(plan.ClientNames()), strings.Join(plan.ClientNames(), ","), len(plan.Profiles),
		strings.Join(names(plan.Sizes, func(s benchsuite.Size) string { return s.Name }), ","), plan.Repetitions, r.Jobs, r.Dir)
	rates := map[string]int64{}
	for name, l := range links {
		rates[name] = l.DownRate
	}
	only, err := m.plan(e, mf, plan.PlanCells(rates), 1)
	if err != nil {
		return err
	}
	start := time.Now()
	runner := &benchsuite.Runner{Env: m.cellEnv(e, seed, only), Links: links, Plan: plan}
	runner.RerunFlags = fmt.Sprintf(" --sizes %s --reps %d", strings.Join(names(plan.Sizes, func(s benchsuite.Size) string { return s.Name }), ","), plan.Repetitions)
	results, err := runner.RunMatrix(ctx, done)
	if err != nil {
		return m.journalError(err)
	}
	matrix.SortResults(results)
	rows := benchsuite.Rows(plan, results)
	csvPath := filepath.Join(r.Dir, "bench.csv")
	if err := benchsuite.WriteCSV(csvPath, rows); err != nil {
		return err
	}
	losses := map[string]float64{}
	for _, p := range plan.Profiles {
		if p.LossSweep {
			losses[p.Name] = links[p.Name].Loss * 100
		}
	}
	charts, err := benchsuite.WriteCharts(r.Dir, rows, losses)
	if err != nil {
		return err
	}
	sum := benchsuite.Summarize(plan, seed, rows, charts)
	sum.StartTime, sum.EndTime, sum.LogDir = float64(start.Unix()), float64(time.Now().Unix()), r.Dir
	if err := writeJSON(filepath.Join(r.Dir, "result.json"), sum); err != nil {
		return err
	}
	table := func() {
		matrix.PrintTable(e.stdout, plan.Columns(), plan.ClientNames(), plan.ServerNames(), results)
		benchsuite.PrintSummary(e.stdout, rows)
		fmt.Fprintf(e.stdout, "\n%d charts in %s (%s, ...)\n", len(charts), r.Dir, firstChart(charts))
	}
	return m.finish(e, "bench", table, results, 1, start, csvPath, baseline)
}

func firstChart(cs []benchsuite.Chart) string {
	if len(cs) == 0 {
		return "none"
	}
	return cs[0].File
}

// benchLinks resolves each profile of the plan in the sim's profile file: what the cells' time
// limits, the plan's estimate and the loss chart need. An unknown profile is bad input.
func benchLinks(file string, profiles []benchsuite.Profile) (map[string]benchsuite.Link, error) {
	pf, err := profile.LoadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]benchsuite.Link{}
	for _, p := range profiles {
		resolved, err := pf.Resolve(p.Name)
		if err != nil {
			return nil, fmt.Errorf("profile %s: %v", p.Name, err)
		}
		l := resolved.Initial()
		out[p.Name] = benchsuite.Link{DownRate: l.ToClient.Rate, RTT: l.ToClient.Delay + l.ToServer.Delay, Loss: l.ToClient.Loss}
	}
	return out, nil
}
