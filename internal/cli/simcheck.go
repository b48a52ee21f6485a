package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/profile"
	"github.com/wirelab/wirelab/internal/schedlag"
	"github.com/wirelab/wirelab/internal/simcheck"
	"github.com/wirelab/wirelab/internal/topology"
)

// scenarioResult is one line of results.jsonl and one entry of result.json.
type scenarioResult struct {
	Name     string                     `json:"name"`
	Profile  string                     `json:"profile"`
	Expected simcheck.Expected          `json:"expected"`
	Probes   map[string]json.RawMessage `json:"probes"`
	Machine  *schedlag.Summary          `json:"machine,omitempty"` // scheduling lag measured next to the RTT probes
	// MachineError says why the machine was not measured (then no failure is excused).
	MachineError string           `json:"machine_error,omitempty"`
	Checks       []simcheck.Check `json:"checks"`
	Capacity     []capacityResult `json:"capacity,omitempty"`
	SimStats     json.RawMessage  `json:"sim_stats,omitempty"`
	Error        string           `json:"error,omitempty"`
	Rerun        string           `json:"rerun"`
}

// capacityResult is one capacity flow's rate: what the README's capacity table reports.
type capacityResult struct {
	Flow string  `json:"flow"`
	Mbps float64 `json:"mbit_per_s"`
	PPS  float64 `json:"packets_per_s"`
}

type simCheckResult struct {
	RunID     string           `json:"run_id"`
	Seed      uint64           `json:"seed"`
	Start     string           `json:"start_time"`
	End       string           `json:"end_time"`
	Scenarios []scenarioResult `json:"scenarios"`
	Passed    int              `json:"checks_passed"`
	Failed    int              `json:"checks_failed"`
	NotJudged int              `json:"checks_not_judged"` // the machine was too busy to measure the sim
}

func runSimCheck(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "sim-check", "")
	opts := fs.runFlags("sim-check")
	quick := fs.Bool("quick", false, "the short set make test runs (delay, 0% vs 5% loss, rate, blackhole)")
	only := fs.String("scenarios", "", "comma-separated scenario names to run (default: all of the set)")
	seedFlag := fs.String("seed", "", "seed for the sim (default: random, printed)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if err := checkRunFlags(opts, time.Now()); err != nil {
		return err
	}
	seed := rand.Uint64() >> 1
	if *seedFlag != "" {
		s, err := strconv.ParseUint(*seedFlag, 10, 64)
		if err != nil {
			return badInputf("--seed %q: want an unsigned integer", *seedFlag)
		}
		seed = s
	}
	scenarios := simcheck.Full()
	if *quick {
		scenarios = simcheck.Quick()
	}
	scenarios, err := pickScenarios(scenarios, *only)
	if err != nil {
		return err
	}
	// Every profile is resolved before anything starts: a bad reference is exit 2, nothing up.
	profiles, err := profile.LoadFile(filepath.Join(e.root, "images", "sim", "profiles.yml"))
	if err != nil {
		return badInputf("%v", err)
	}
	resolved := map[string]*profile.Resolved{}
	for _, s := range scenarios {
		if resolved[s.Name], err = profiles.Resolve(s.Profile); err != nil {
			return badInputf("%v", err)
		}
	}
	r, ctx, compose, err := e.startRun(ctx, *opts, true)
	if err != nil {
		return err
	}
	defer r.Finish()
	fmt.Fprintf(e.stdout, "sim-check: run %s, seed %d, %d scenarios -> %s\n", r.ID, seed, len(scenarios), r.Dir)

	res := simCheckResult{RunID: r.ID, Seed: seed, Start: time.Now().UTC().Format(time.RFC3339)}
	jsonl, err := os.Create(filepath.Join(r.Dir, "results.jsonl"))
	if err != nil {
		return err
	}
	defer jsonl.Close()
	var alloc topology.Allocator
	for i, s := range scenarios {
		start := time.Now()
		sr := runScenario(ctx, e, r, compose, &alloc, s, resolved[s.Name], seed)
		if ctx.Err() != nil {
			return errInterrupted
		}
		res.Scenarios = append(res.Scenarios, sr)
		line, _ := json.Marshal(sr)
		fmt.Fprintf(jsonl, "%s\n", line) // written as each scenario ends: an interrupted run keeps them
		fmt.Fprintf(e.stdout, "[%d/%d] %s (%s) %.0fs\n", i+1, len(scenarios), s.Name, sr.Profile, time.Since(start).Seconds())
		if sr.Error != "" {
			fmt.Fprintf(e.stdout, "  ERROR %s\n", sr.Error)
			res.Failed++
		}
		for _, c := range sr.Capacity {
			fmt.Fprintf(e.stdout, "  %-18s %8.1f Mbit/s %9.0f packets/s (%d-byte packets)\n", c.Flow, c.Mbps, c.PPS, simcheck.CapacityPayload+28)
		}
		var rtt probeRTT
		if s.RTTCount > 0 && !s.P50Check && !s.P99Check && json.Unmarshal(sr.Probes["rtt"], &rtt) == nil {
			fmt.Fprintf(e.stdout, "  rtt p50 %.3f ms, p99 %.3f ms (reported, no target)\n", rtt.P50Ms, rtt.P99Ms)
		}
		if lag := sr.Machine; lag != nil {
			fmt.Fprintf(e.stdout, "  machine: scheduling lag p50 %.2f ms, p99 %.2f ms, max %.0f ms next to the RTT probes\n", lag.P50Ms, lag.P99Ms, lag.MaxMs)
		}
		if sr.MachineError != "" {
			fmt.Fprintf(e.stdout, "  machine: not measured (%s)\n", sr.MachineError)
		}
		for _, c := range sr.Checks {
			fmt.Fprintf(e.stdout, "  %s\n", c)
			switch {
			case c.NotJudged != "":
				res.NotJudged++
			case c.Pass:
				res.Passed++
			default:
				res.Failed++
			}
		}
	}
	res.End = time.Now().UTC().Format(time.RFC3339)
	for _, p := range []string{filepath.Join(r.Dir, "result.json"), filepath.Join(opts.Out, "sim-check", "result.json")} {
		if err := writeJSON(p, res); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "sim-check: %d checks passed, %d failed, %d not judged (machine too busy); %s\n",
		res.Passed, res.Failed, res.NotJudged, filepath.Join(r.Dir, "result.json"))
	if res.Failed > 0 {
		return failed{fmt.Sprintf("%d fidelity checks failed", res.Failed)}
	}
	return nil
}

func pickScenarios(all []simcheck.Scenario, only string) ([]simcheck.Scenario, error) {
	if only == "" {
		return all, nil
	}
	byName := map[string]simcheck.Scenario{}
	for _, s := range all {
		byName[s.Name] = s
	}
	var out []simcheck.Scenario
	for _, n := range strings.Split(only, ",") {
		s, ok := byName[strings.TrimSpace(n)]
		if !ok {
			return nil, badInputf("--scenarios: unknown scenario %q", n)
		}
		out = append(out, s)
	}
	return out, nil
}
