package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/wirelab/wirelab/internal/h2suite"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/profile"
	"github.com/wirelab/wirelab/internal/tshark"
)

// runH2 runs the HTTP/2 matrix: every h2 server x section (h2spec, wirelab's own cases), each
// cell through the sim on one profile.
func runH2(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "h2", "")
	mf := fs.matrixFlags("h2", fmt.Sprintf("run each cell `N` times (1..%d), repetition i in <server>/<section>/r<i>/ "+
		"with its own seed; results.jsonl and junit.xml get the pass rate k/N and flaky when 0 < k < N", matrix.MaxRepeat))
	opts := mf.run
	serversFlag := fs.String("servers", "", "comma-separated servers (default: every image with the h2 server role)")
	casesFlag := fs.String("cases", "", "comma-separated sections: h2spec and wirelab's own cases (default: all in the matrix file)")
	profileFlag := fs.String("profile", "ideal", "sim profile `reference` for every cell")
	h2specFlag := fs.String("h2spec", "", "narrow the h2spec section to these h2spec `specs` (e.g. http2/6.9: 6.9, 6.9.1, 6.9.2)")
	uploadSize := fs.Int64("upload-size", 0, "upload sections: body `bytes` (default: the matrix file's, 10 MB)")
	uploadReps := fs.Int("upload-reps", 0, "upload sections: `repetitions` on fresh connections (default: the matrix file's, 5)")
	matrixFile := fs.String("matrix", filepath.Join(e.root, "conformance", "h2", "matrix.yml"), "the sections `file`")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	seed, err := mf.check(func() string { return filepath.Join(opts.Out, "h2", opts.ID) })
	if err != nil {
		return err
	}

	// All input is validated before anything starts.
	allSections, err := h2suite.LoadSections(*matrixFile)
	if err != nil {
		return badInputf("%v", err)
	}
	sections := allSections
	if sections, err = matrix.Select(sections, *casesFlag, func(s *h2suite.Section) string { return s.Name }, "section"); err != nil {
		return badInputf("--cases: %v", err)
	}
	if err := h2suite.NarrowH2spec(sections, *h2specFlag); err != nil {
		return badInputf("--h2spec: %v", err)
	}
	if err := h2suite.ResizeUploads(sections, *uploadSize, *uploadReps); err != nil {
		return badInputf("--upload-size/--upload-reps: %v", err)
	}
	ms, err := manifest.LoadDir(filepath.Join(e.root, "images"))
	if err != nil {
		return err
	}
	servers := h2suite.ServersFromManifests(ms)
	baseline, err := mf.loadBaseline(e.root, "h2", matrix.Universe{Servers: names(servers, func(s h2suite.Server) string { return s.Name }),
		Clients: names(allSections, func(s *h2suite.Section) string { return s.Client }),
		Cases:   names(allSections, func(s *h2suite.Section) string { return s.Name })},
		*matrixFile == filepath.Join(e.root, "conformance", "h2", "matrix.yml"))
	if err != nil {
		return err
	}
	if servers, err = matrix.Select(servers, *serversFlag, func(s h2suite.Server) string { return s.Name }, "server"); err != nil {
		return badInputf("--servers: %v", err)
	}
	if len(servers) == 0 {
		return badInputf("no HTTP/2 servers to run (no image has the h2 server role)")
	}
	profiles, err := profile.LoadFile(filepath.Join(e.root, "images", "sim", "profiles.yml"))
	if err != nil {
		return badInputf("%v", err)
	}
	rtts := map[string]time.Duration{}
	for _, ref := range append([]string{*profileFlag}, h2suite.Profiles(sections)...) {
		resolved, err := profiles.Resolve(ref)
		if err != nil {
			return badInputf("profile %s: %v", ref, err)
		}
		link := resolved.Initial()
		rtts[ref] = link.ToClient.Delay + link.ToServer.Delay
	}

	m, err := e.startMatrix(ctx, mf, seed)
	if err != nil {
		return err
	}
	defer m.close()
	r, ctx, done := m.Run, m.ctx, m.done
	fmt.Fprintf(e.stdout, "h2: run %s, seed %d: %d servers x %d sections on %s, -j %d -> %s\n",
		r.ID, seed, len(servers), len(sections), *profileFlag, r.Jobs, r.Dir)
	only, err := m.plan(e, mf, h2suite.PlanCells(servers, sections), *mf.repeat)
	if err != nil {
		return err
	}
	start := time.Now()
	runner := &h2suite.Runner{Env: m.cellEnv(e, seed, only), Profile: *profileFlag, RTTs: rtts,
		Repeat: *mf.repeat, Tshark: &tshark.Tool{Docker: e.docker}}
	for _, f := range [][2]string{{"--h2spec", *h2specFlag}, {"--upload-size", nonZero(*uploadSize)}, {"--upload-reps", nonZero(int64(*uploadReps))}} {
		if f[1] != "" {
			runner.RerunFlags += " " + f[0] + " " + f[1]
		}
	}
	results, err := runner.RunMatrix(ctx, servers, sections, done)
	if err != nil {
		return m.journalError(err)
	}
	matrix.SortResults(results)
	var sNames []string
	for _, s := range servers {
		sNames = append(sNames, s.Name)
	}
	sum := h2suite.Summarize(sections, servers, results, *profileFlag)
	sum.StartTime, sum.EndTime, sum.LogDir = float64(start.Unix()), float64(time.Now().Unix()), r.Dir
	if err := writeJSON(filepath.Join(r.Dir, "result.json"), sum); err != nil {
		return err
	}
	uploads := h2suite.UploadRows(ctx, runner.Tshark, sections, results)
	if len(uploads) > 0 {
		if err := h2suite.WriteUploadCSV(filepath.Join(r.Dir, "upload.csv"), uploads); err != nil {
			return err
		}
	}
	table := func() {
		matrix.PrintGrid(e.stdout, h2suite.Columns(sections), sNames, results)
		h2suite.PrintUploadTable(e.stdout, uploads)
	}
	return m.finish(e, "h2", table, results, *mf.repeat, start, filepath.Join(r.Dir, "result.json"), baseline)
}

// nonZero is n as a flag value, "" for 0 (the matrix file's default).
func nonZero(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}
