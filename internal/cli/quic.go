package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/certs"
	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/profile"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/topology"
)

// imageRefs collects repeated --image NAME=IMAGE[:roles] flags.
type imageRefs []string

func (i *imageRefs) String() string     { return strings.Join(*i, " ") }
func (i *imageRefs) Set(v string) error { *i = append(*i, v); return nil }

func runQuic(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "quic", "")
	opts := fs.runFlags("quic")
	clientsFlag := fs.String("clients", "", "comma-separated client implementations (default: every image with the quic client role)")
	serversFlag := fs.String("servers", "", "comma-separated server implementations (default: every image with the quic server role)")
	testsFlag := fs.String("tests", "", "comma-separated test cases (default: all in the cases file)")
	profileFlag := fs.String("profile", "", "sim profile `reference` for every cell, instead of each case's own")
	seedFlag := fs.String("seed", "", "seed for files and the sim (default: random, printed)")
	casesFile := fs.String("cases", filepath.Join(e.root, "conformance", "quic", "testcases.yml"), "test case `file`")
	resume := fs.Bool("resume", false, "with --run-id of an interrupted run: run only the cells missing from its results.jsonl")
	repeat := fs.Int("repeat", 1, fmt.Sprintf("run each non-measurement cell `N` times (1..%d), one after the other, repetition i in "+
		"<cell>/r<i>/ with its own seed derived from --seed and i (r1: --seed itself); result.json gets the majority "+
		"(k > N/2 passed; a tie is failed; any unsupported repetition: unsupported), results.jsonl and junit.xml the "+
		"pass rate k/N and flaky when 0 < k < N. Measurements (goodput, crosstraffic) keep their own repetitions "+
		"and run once. --resume counts a cell done only once all its repetitions are journaled", matrix.MaxRepeat))
	var refs imageRefs
	fs.Var(&refs, "image", "add an implementation by image reference: `NAME=IMAGE[:client,server]` (repeatable)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if *repeat < 1 || *repeat > matrix.MaxRepeat {
		return badInputf("--repeat %d: want 1..%d", *repeat, matrix.MaxRepeat)
	}
	if *resume && opts.ID == "" {
		return badInputf("--resume needs the --run-id of the run to complete")
	}
	if err := checkRunFlags(opts, time.Now()); err != nil {
		return err
	}

	// All input is validated before anything starts.
	cases, err := quicinterop.LoadCases(*casesFile)
	if err != nil {
		return badInputf("%v", err)
	}
	if cases, err = matrix.Select(cases, *testsFlag, func(c *quicinterop.Case) string { return c.Name }, "test case"); err != nil {
		return badInputf("--tests: %v", err)
	}
	ms, err := manifest.LoadDir(filepath.Join(e.root, "images"))
	if err != nil {
		return err
	}
	impls := quicinterop.ImplsFromManifests(ms)
	for _, ref := range refs {
		impl, err := quicinterop.ParseImageRef(ref)
		if err != nil {
			return badInputf("%v", err)
		}
		impls = append(impls, impl)
	}
	var clients, servers []quicinterop.Impl
	for _, i := range impls {
		if i.Client {
			clients = append(clients, i)
		}
		if i.Server {
			servers = append(servers, i)
		}
	}
	name := func(i quicinterop.Impl) string { return i.Name }
	if clients, err = matrix.Select(clients, *clientsFlag, name, "client"); err != nil {
		return badInputf("--clients: %v", err)
	}
	if servers, err = matrix.Select(servers, *serversFlag, name, "server"); err != nil {
		return badInputf("--servers: %v", err)
	}
	if len(clients) == 0 || len(servers) == 0 {
		return badInputf("no QUIC clients or servers to run (images with a quic role: %d)", len(impls))
	}
	profiles, err := profile.LoadFile(filepath.Join(e.root, "images", "sim", "profiles.yml"))
	if err != nil {
		return badInputf("%v", err)
	}
	for _, c := range cases {
		ref := c.Profile
		if *profileFlag != "" {
			ref = *profileFlag
		}
		if _, err := profiles.Resolve(ref); err != nil {
			return badInputf("%v", err)
		}
	}
	seed := rand.Uint64() >> 1
	if *seedFlag != "" {
		if seed, err = strconv.ParseUint(*seedFlag, 10, 64); err != nil {
			return badInputf("--seed %q: want an unsigned integer", *seedFlag)
		}
	}
	runDir := filepath.Join(opts.Out, "quic", opts.ID)
	if *resume {
		if _, err := os.Stat(filepath.Join(runDir, "results.jsonl")); err != nil {
			return badInputf("--resume: %s has no results.jsonl to resume", runDir)
		}
	}

	r, ctx, compose, err := e.startRun(ctx, *opts)
	if err != nil {
		return err
	}
	defer r.Finish()
	certDir := filepath.Join(r.Dir, "certs")
	if _, err := os.Stat(filepath.Join(certDir, "cert.pem")); err != nil {
		if err := certs.Write(certDir); err != nil {
			return err
		}
	}
	journal, done, err := matrix.OpenJournal(filepath.Join(r.Dir, "results.jsonl"))
	if err != nil {
		return err
	}
	defer journal.Close()
	fmt.Fprintf(e.stdout, "quic: run %s, seed %d: %d clients x %d servers x %d cases, -j %d -> %s\n",
		r.ID, seed, len(clients), len(servers), len(cases), r.Jobs, r.Dir)
	matrix.PrintPlan(e.stdout, matrix.EstimatePlan(quicinterop.PlanCells(clients, servers, cases), done, *repeat, r.Jobs, matrix.LoadHistory(filepath.Join(opts.Out, "quic"))), r.Dir)
	start := time.Now()
	runner := &quicinterop.Runner{Run: r, Compose: compose, Root: e.root, Alloc: &topology.Allocator{}, Journal: journal,
		Progress: e.stdout, Seed: seed, Profile: *profileFlag, CertsDir: certDir, Repeat: *repeat,
		Trace: quicinterop.QuicTrace{Tshark: &quictrace.Runner{Docker: e.docker}}}
	results, err := runner.RunMatrix(ctx, clients, servers, cases, done)
	if err != nil { // the journal could not keep a result: nothing more can be written reliably
		return &docker.EnvError{Msg: fmt.Sprintf("%v; the run stopped, its journal keeps every cell written before (--run-id %s --resume continues)", err, r.ID)}
	}
	matrix.SortResults(results)

	urls := map[string]string{}
	var cNames, sNames []string
	for _, c := range clients {
		cNames, urls[c.Name] = append(cNames, c.Name), c.URL
	}
	for _, s := range servers {
		sNames, urls[s.Name] = append(sNames, s.Name), s.URL
	}
	sum := quicinterop.Summarize(cases, cNames, sNames, results, urls)
	sum.StartTime, sum.EndTime, sum.LogDir = float64(start.Unix()), float64(time.Now().Unix()), r.Dir
	if err := writeJSON(filepath.Join(r.Dir, "result.json"), sum); err != nil {
		return err
	}
	if err := matrix.WriteJUnit(filepath.Join(r.Dir, "junit.xml"), "quic", results); err != nil {
		return err
	}
	matrix.PrintTable(e.stdout, quicinterop.Columns(cases), cNames, sNames, results)
	passed, failedN, unsupported := matrix.Counts(results)
	flaky := ""
	if *repeat > 1 {
		flaky = fmt.Sprintf(", %d flaky (of %d repetitions each)", matrix.FlakyCount(results), *repeat)
	}
	fmt.Fprintf(e.stdout, "\nquic: %d passed, %d failed, %d unsupported%s in %s; %s\n", passed, failedN, unsupported, flaky,
		time.Since(start).Round(time.Second), filepath.Join(r.Dir, "result.json"))
	if ctx.Err() != nil {
		return errInterrupted
	}
	if failedN > 0 {
		return failed{fmt.Sprintf("%d cells failed", failedN)}
	}
	return nil
}
