package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/profile"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/tshark"
)

// imageRefs collects repeated --image NAME=IMAGE[:roles] flags.
type imageRefs []string

func (i *imageRefs) String() string     { return strings.Join(*i, " ") }
func (i *imageRefs) Set(v string) error { *i = append(*i, v); return nil }

func runQuic(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "quic", "")
	mf := fs.matrixFlags("quic", fmt.Sprintf("run each non-measurement cell `N` times (1..%d), one after the other, repetition i in "+
		"<cell>/r<i>/ with its own seed derived from --seed and i (r1: --seed itself); result.json gets the majority "+
		"(k > N/2 passed; a tie is failed; any unsupported repetition: unsupported), results.jsonl and junit.xml the "+
		"pass rate k/N and flaky when 0 < k < N. Measurements (goodput, crosstraffic) keep their own repetitions "+
		"and run once. --resume counts a cell done only once all its repetitions are journaled", matrix.MaxRepeat))
	opts := mf.run
	clientsFlag := fs.String("clients", "", "comma-separated client implementations (default: every image with the quic client role)")
	serversFlag := fs.String("servers", "", "comma-separated server implementations (default: every image with the quic server role)")
	testsFlag := fs.String("tests", "", "comma-separated test cases (default: all in the cases file)")
	profileFlag := fs.String("profile", "", "sim profile `reference` for every cell, instead of each case's own")
	casesFile := fs.String("cases", filepath.Join(e.root, "conformance", "quic", "testcases.yml"), "test case `file`")
	var refs imageRefs
	fs.Var(&refs, "image", "add an implementation by image reference: `NAME=IMAGE[:client,server]` (repeatable)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	seed, err := mf.check(func() string { return filepath.Join(opts.Out, "quic", opts.ID) })
	if err != nil {
		return err
	}

	// All input is validated before anything starts.
	allCases, err := quicinterop.LoadCases(*casesFile)
	if err != nil {
		return badInputf("%v", err)
	}
	cases := allCases
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
	baseline, err := mf.loadBaseline(e.root, "quic", matrix.Universe{Servers: names(servers, name), Clients: names(clients, name),
		Cases: names(allCases, func(c *quicinterop.Case) string { return c.Name })},
		*casesFile == filepath.Join(e.root, "conformance", "quic", "testcases.yml"))
	if err != nil {
		return err
	}
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
	m, err := e.startMatrix(ctx, mf, seed)
	if err != nil {
		return err
	}
	defer m.close()
	r, ctx, done := m.Run, m.ctx, m.done
	fmt.Fprintf(e.stdout, "quic: run %s, seed %d: %d clients x %d servers x %d cases, -j %d -> %s\n",
		r.ID, seed, len(clients), len(servers), len(cases), r.Jobs, r.Dir)
	only, err := m.plan(e, mf, quicinterop.PlanCells(clients, servers, cases), *mf.repeat)
	if err != nil {
		return err
	}
	start := time.Now()
	runner := &quicinterop.Runner{Env: m.cellEnv(e, seed, only), Profile: *profileFlag, Repeat: *mf.repeat,
		Trace: quicinterop.QuicTrace{Tshark: &tshark.Tool{Docker: e.docker}}}
	results, err := runner.RunMatrix(ctx, clients, servers, cases, done)
	if err != nil { // the journal could not keep a result: nothing more can be written reliably
		return m.journalError(err)
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
	table := func() { matrix.PrintTable(e.stdout, quicinterop.Columns(cases), cNames, sNames, results) }
	return m.finish(e, "quic", table, results, *mf.repeat, start, filepath.Join(r.Dir, "result.json"), baseline)
}
