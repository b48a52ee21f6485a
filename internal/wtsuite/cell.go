package wtsuite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// Layout implements suite.Matrix: the repetition's endpoint, protocols and files, the server
// (which may end by itself once its session is done, as upstream's do) and the client through
// the sim.
func (m *Matrix) Layout(_ context.Context, r *suite.Run, cell matrix.Cell, seed uint64, dir string) (lifecycle.Layout, error) {
	server, client, c := m.impls[cell.Server], m.impls[cell.Client], m.byCase[cell.Case]
	l := lifecycle.Layout{Name: []string{server.Name, client.Name, c.Name}, Limit: c.Limit, Undeclared: server.Testcases == nil || client.Testcases == nil,
		Rerun: fmt.Sprintf("wirelab %s --servers %s --clients %s --tests %s --seed %d", Name, server.Name, client.Name, c.Name, seed)}
	profile := c.Profile
	if m.profile != "" {
		profile = m.profile
		l.Rerun += " --profile " + m.profile
	}
	in, err := MakeInputs(dir, c, seed)
	if err != nil {
		return l, err
	}
	clientReqs, serverReqs := c.Requests(in)
	l.Env = map[string]string{
		"CLIENT_IMAGE": client.Image, "SERVER_IMAGE": server.Image,
		"TESTCASE": c.Testcase("client"), "SERVER_TESTCASE": c.Testcase("server"),
		"REQUESTS": clientReqs, "SERVER_REQUESTS": serverReqs,
		"CLIENT_PROTOCOLS": strings.Join(in.ClientProtocols, " "), "SERVER_PROTOCOLS": strings.Join(in.ServerProtocols, " "),
		"SIM_PROFILE": profile, "SIM_SEED": strconv.FormatUint(seed, 10), "CERTS_DIR": r.CertsDir,
	}
	l.Peers = []lifecycle.Peer{{Service: "server", Listen: "udp", Port: 443, Finishes: true}}
	return l, nil
}

// Verdict implements suite.Matrix: the client's exit, the files each side saved, then the trace
// checks, in the case's order — read from the fenced cell and its stored inputs only.
func (m *Matrix) Verdict(ctx context.Context, _ *suite.Run, cell matrix.Cell, ev lifecycle.Evidence) (res matrix.Result) {
	c := m.byCase[cell.Case]
	res.Result = matrix.Failed
	in, err := ReadInputs(ev.Dir)
	if err != nil {
		res.Reason = "the cell's inputs: " + err.Error()
		return res
	}
	var traceChecks []string
	for _, chk := range c.Checks {
		if chk != "files" {
			traceChecks = append(traceChecks, chk)
		}
	}
	why, err := CheckTrace(ctx, m.traceTool, ev.Dir, c, in, traceChecks)
	if err != nil {
		why = "trace analysis: " + err.Error()
	}
	// A client that failed is the verdict, but the trace usually says why (a datagram the
	// client could not map to its session, a stream it had to ignore): both go in the reason.
	if ev.ClientExit != 0 {
		res.Reason = fmt.Sprintf("client exited %d: %s", ev.ClientExit, ev.ClientWords)
		if why != "" {
			res.Reason += "; trace: " + why
		}
		return res
	}
	if slices.Contains(c.Checks, "files") {
		if err := CompareFiles(filepath.Join(c.SourceDir(ev.Dir), in.Endpoint), filepath.Join(c.DownloadDir(ev.Dir), in.Endpoint), in.Files); err != nil {
			res.Reason = "files: " + err.Error()
			return res
		}
	}
	if why != "" {
		res.Reason = why
		return res
	}
	res.Result = matrix.Succeeded
	return res
}

// CompareFiles is upstream's file check: every file the case moved is in the requester's
// download folder with the source's exact bytes, and nothing else is.
func CompareFiles(source, downloads string, names []string) error {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	entries, err := os.ReadDir(downloads)
	if err != nil {
		return fmt.Errorf("no download folder %s (0 of %d files)", filepath.Base(downloads), len(names))
	}
	for _, e := range entries {
		if !want[e.Name()] {
			return fmt.Errorf("unexpected file %s in the downloads", e.Name())
		}
	}
	missing, differ, first := 0, 0, ""
	for _, n := range names {
		a, err := os.ReadFile(filepath.Join(source, n))
		if err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(downloads, n))
		switch {
		case err != nil:
			missing++
		case string(a) != string(b):
			differ++
		default:
			continue
		}
		if first == "" {
			first = n
		}
	}
	if missing+differ > 0 {
		return fmt.Errorf("%d of %d files missing, %d differ (first: %s)", missing, len(names), differ, first)
	}
	return nil
}
