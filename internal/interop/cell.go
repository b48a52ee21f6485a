package interop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/certs"
	"github.com/wirelab/wirelab/internal/topology"
)

// TraceChecker evaluates the checks read from a cell's decrypted trace (internal/quictrace).
// It returns "" when every check holds, else one line naming the first failed check and why.
type TraceChecker interface {
	Check(ctx context.Context, cellDir string, c *Case, checks []Check, files []string) (string, error)
}

var unsafeName = regexp.MustCompile(`[^a-z0-9-]+`)

// runCell runs one client x server x case cell and returns its verdict.
func (r *Runner) runCell(ctx context.Context, server, client Impl, c *Case) (res CellResult) {
	start := time.Now()
	dir := filepath.Join(r.Run.Dir, server.Name+"_"+client.Name, c.Name)
	res = CellResult{Server: server.Name, Client: client.Name, Case: c.Name, Abbr: c.Abbr, Result: Failed, Dir: dir}
	defer func() { res.Seconds = time.Since(start).Round(100 * time.Millisecond).Seconds() }() // runs last
	if !server.Supports(c.Name) || !client.Supports(c.Name) {
		res.Result, res.Reason = Unsupported, "not in the image's declared test cases"
		return res
	}
	_ = os.RemoveAll(dir) // --resume reruns a cell from scratch
	names, err := GenerateFiles(filepath.Join(dir, "www"), c, r.Seed)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	var reqs []string
	for _, n := range names {
		reqs = append(reqs, "https://"+c.Host+":443/"+n)
	}
	subnets, release, err := r.Alloc.Allocate(ctx, r.Run.Docker, r.Run.ID+"/"+dir)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	defer release()
	profileRef := c.Profile
	if r.Profile != "" {
		profileRef = r.Profile
	}
	certDir := r.CertsDir
	if c.CertChain > 0 { // e.g. amplificationlimit: a long chain of this cell's own
		certDir = filepath.Join(dir, "certs")
		if err := certs.WriteChain(certDir, c.CertChain); err != nil {
			res.Reason = err.Error()
			return res
		}
	}
	project := unsafeName.ReplaceAllString(strings.ToLower(server.Name+"-"+client.Name+"-"+c.Name), "-")
	cell := topology.NewCellIn(r.Run, r.Compose, r.Root, project, dir, subnets, map[string]string{
		"CLIENT_IMAGE": client.Image, "SERVER_IMAGE": server.Image,
		"TESTCASE": c.Testcase, "SERVER_TESTCASE": serverTestcase(c), "REQUESTS": strings.Join(reqs, " "),
		"SIM_PROFILE": profileRef, "SIM_SEED": strconv.FormatUint(r.Seed, 10), "CERTS_DIR": certDir,
	})
	res.Rerun = fmt.Sprintf("wirelab quic --servers %s --clients %s --tests %s --seed %d", server.Name, client.Name, c.Name, r.Seed)
	if r.Profile != "" {
		res.Rerun += " --profile " + r.Profile
	}
	_ = os.WriteFile(filepath.Join(dir, "rerun.sh"), []byte("#!/bin/sh\n# this cell alone, through wirelab:\n"+res.Rerun+
		"\n# or the bare topology (then: wirelab clean --run-id "+r.Run.ID+"-rerun):\n# "+cell.RerunCommand()+"\n"), 0o755)

	defer func() {
		out, _ := cell.Cmd(context.Background(), "logs", "--no-color", "--timestamps").CombinedOutput()
		_ = os.WriteFile(filepath.Join(dir, "output.txt"), out, 0o644)
		if err := cell.Stop(context.Background()); err != nil && res.Reason == "" {
			res.Reason = err.Error()
		}
	}()
	if err := cell.Up(ctx); err != nil {
		res.Reason = err.Error()
		return res
	}
	code, err := r.waitExit(ctx, cell.Container("client"), c.Limit)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	serverState, _ := r.Run.Docker.Run(context.Background(), "inspect", "-f", "{{.State.Status}} {{.State.ExitCode}}", cell.Container("server"))
	switch {
	case code == 127 || serverState == "exited 127":
		res.Result, res.Reason = Unsupported, "an endpoint answered 127 (test case not supported)"
		return res
	case code != 0:
		res.Reason = fmt.Sprintf("client exited %d (server: %s): %s", code, serverState, r.lastLogLine(cell.Container("client")))
		return res
	}
	if reason := r.verify(ctx, dir, c, names); reason != "" {
		res.Reason = reason
		return res
	}
	res.Result = Succeeded
	return res
}

func serverTestcase(c *Case) string {
	if c.ServerTestcase != "" {
		return c.ServerTestcase
	}
	return c.Testcase
}

// waitExit waits for a container to exit, at most limit, and returns its exit code.
func (r *Runner) waitExit(ctx context.Context, container string, limit time.Duration) (int, error) {
	wctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	out, err := r.Run.Docker.Run(wctx, "wait", container)
	if wctx.Err() == context.DeadlineExceeded {
		return -1, fmt.Errorf("timeout: the client did not finish within %s", limit)
	}
	if err != nil {
		return -1, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

// verify runs the case's checks: the download comparison here, the rest on the trace.
func (r *Runner) verify(ctx context.Context, dir string, c *Case, names []string) string {
	var traceChecks []Check
	for _, chk := range c.CheckList {
		if chk.Name == "files" {
			if err := CompareDownloads(filepath.Join(dir, "www"), filepath.Join(dir, "downloads"), names); err != nil {
				return err.Error()
			}
			continue
		}
		traceChecks = append(traceChecks, chk)
	}
	if len(traceChecks) == 0 {
		return ""
	}
	if r.Trace == nil {
		return fmt.Sprintf("%s: no trace checker in this build", traceChecks[0])
	}
	reason, err := r.Trace.Check(ctx, dir, c, traceChecks, names)
	if err != nil {
		return "trace analysis: " + err.Error()
	}
	return reason
}

// lastLogLine is the client's last words (its stderr and stdout), to say in one line why it failed.
func (r *Runner) lastLogLine(container string) string {
	cmd := r.Run.Docker.Cmd(context.Background(), "logs", "--tail", "5", container)
	out, _ := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(last) > 200 {
		last = last[:200] + "..."
	}
	if last == "" {
		return "no output"
	}
	return last
}
