package quicinterop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/certs"
	"github.com/wirelab/wirelab/internal/topology"

	"github.com/wirelab/wirelab/internal/matrix"
)

// TraceChecker evaluates the checks read from a cell's decrypted trace (internal/quictrace).
// Its verdict's Reason is "" when every check holds, else one line naming the first failed check
// and why; GoodputKbps is measured when the case measures goodput.
type TraceChecker interface {
	Check(ctx context.Context, cellDir string, c *Case, checks []Check, files []string) (TraceVerdict, error)
}

// TraceVerdict is what the trace said about a cell.
type TraceVerdict struct {
	Reason      string
	GoodputKbps float64
}

// runCell runs one client x server x case cell and returns its verdict; a measurement runs its
// repetitions, each in <cell>/<n>/, and succeeds only if every repetition does (--repeat does not
// multiply them); any other cell runs once, or --repeat times in <cell>/r<i>/ (repeat.go).
func (r *Runner) runCell(ctx context.Context, server, client Impl, c *Case) (res matrix.Result) {
	start := time.Now()
	dir := filepath.Join(r.Run.Dir, server.Name+"_"+client.Name, c.Name)
	res = matrix.Result{Server: server.Name, Client: client.Name, Case: c.Name, Abbr: c.Abbr, Result: matrix.Failed, Dir: dir}
	defer func() { res.Seconds = time.Since(start).Round(100 * time.Millisecond).Seconds() }() // runs last
	if !server.Supports(c.Name) || !client.Supports(c.Name) {
		res.Result, res.Reason = matrix.Unsupported, "not in the image's declared test cases"
		return res
	}
	if ok, why := commonALPN(client, server); !ok && c.Testcase != "http3" {
		res.Result, res.Reason = matrix.Unsupported, why
		return res
	}
	if !c.IsMeasurement() { // once, or --repeat times (repeat.go)
		return r.runRepeated(ctx, server, client, c, dir, res)
	}
	_ = os.RemoveAll(dir)
	for i := 1; i <= c.Repetitions && ctx.Err() == nil; i++ {
		one := r.runOnce(ctx, server, client, c, filepath.Join(dir, strconv.Itoa(i)))
		res.Rerun = one.Rerun
		if one.Result != matrix.Succeeded {
			res.Result, res.Reason = one.Result, fmt.Sprintf("repetition %d: %s", i, one.Reason)
			return res
		}
		res.Values, res.Cross = append(res.Values, one.Values...), append(res.Cross, one.Cross...)
	}
	res.Result, res.Details = matrix.Succeeded, measurementDetails(res.Values)
	if len(res.Cross) > 0 {
		_, note := crossCC()
		res.Details += fmt.Sprintf("; competing TCP flow (%s) %.0f kbps", note, mean(res.Cross))
	}
	return res
}

// runOnce runs the cell's topology once with its output in dir.
func (r *Runner) runOnce(ctx context.Context, server, client Impl, c *Case, dir string) (res matrix.Result) {
	res.Result = matrix.Failed
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
	cc, _ := crossCC()
	cell, release, err := r.Alloc.AllocateCell(ctx, r.Run, r.Compose, r.Root, dir, map[string]string{
		"CLIENT_IMAGE": client.Image, "SERVER_IMAGE": server.Image,
		"TESTCASE": c.Testcase, "SERVER_TESTCASE": serverTestcase(c), "REQUESTS": strings.Join(reqs, " "),
		"SIM_PROFILE": profileRef, "SIM_SEED": strconv.FormatUint(r.Seed, 10), "CERTS_DIR": certDir,
		"COMPOSE_PROFILES": composeProfiles(c), "CROSS_CC": cc,
	}, server.Name, client.Name, c.Name)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	defer release()
	res.Rerun = fmt.Sprintf("wirelab quic --servers %s --clients %s --tests %s --seed %d", server.Name, client.Name, c.Name, r.Seed)
	if r.Profile != "" {
		res.Rerun += " --profile " + r.Profile
	}
	_ = cell.WriteRerun(res.Rerun)

	defer func() {
		if err := cell.Close(); err != nil && res.Reason == "" {
			res.Reason = err.Error()
		}
	}()
	// The server first, and the client only once the server listens (quic-go's client gives up
	// after 5 s). With cross traffic, the TCP flow is under way before the client starts too.
	var extra []string
	if c.CrossTraffic {
		extra = []string{"iperf_server", "iperf_client"}
	}
	if err := cell.StartServer(ctx, "udp", extra...); err != nil {
		if res.Reason = err.Error(); err == topology.ErrServerUnsupported {
			res.Result = matrix.Unsupported
		}
		return res
	}
	if c.CrossTraffic {
		time.Sleep(2 * time.Second)
	}
	if err := cell.Up(ctx); err != nil {
		res.Reason = err.Error()
		return res
	}
	code, serverCode, err := r.waitClient(ctx, cell, c.Limit)
	if serverCode == 127 { // upstream's contract: either side's 127 makes the cell unsupported
		res.Result, res.Reason = matrix.Unsupported, "the server answered 127 (test case not supported)"
		return res
	}
	if c.CrossTraffic { // stop the TCP flow with the transfer: the trace then ends with it too
		_ = cell.Cmd(context.Background(), "stop", "-t", "1", "iperf_client", "iperf_server").Run()
		log, _ := r.Run.Docker.Cmd(context.Background(), "logs", cell.Container("iperf_server")).CombinedOutput()
		kbps, cerr := crossTrafficKbps(log)
		if cerr != nil && err == nil && code == 0 {
			res.Reason = cerr.Error()
			return res
		}
		res.Cross = []float64{kbps}
	}
	if err != nil {
		res.Reason = err.Error() + r.deaths(cell)
		return res
	}
	serverState, _ := cell.State(context.Background(), "server")
	switch {
	case code == 127 || serverState == "exited 127":
		res.Result, res.Reason = matrix.Unsupported, "an endpoint answered 127 (test case not supported)"
		return res
	case code != 0:
		res.Reason = fmt.Sprintf("client exited %d (server: %s, %s): %s", code, serverState, downloadCount(dir, names), cell.LastLogLine("client"))
		return res
	}
	if err := cell.Fence(ctx); err != nil {
		res.Reason = err.Error()
		return res
	}
	v := r.verify(ctx, dir, c, names)
	if v.Reason != "" {
		res.Reason = v.Reason
		return res
	}
	if c.IsMeasurement() {
		res.Values = []float64{v.GoodputKbps}
	}
	res.Result = matrix.Succeeded
	return res
}

// deaths names the cell's server or sim when it is no longer running when the client's wait
// ended ("; the server exited 137"), so a timeout caused by a dead peer or network says so.
func (r *Runner) deaths(cell *topology.Cell) string {
	var out string
	for _, svc := range []string{"server", "sim"} {
		state, err := cell.State(context.Background(), svc)
		if st, code, _ := strings.Cut(state, " "); err == nil && st != "running" {
			out += fmt.Sprintf("; the %s had exited %s", svc, code)
		}
	}
	return out
}

// composeProfiles selects compose/lab.yml's optional services for a case.
func composeProfiles(c *Case) string {
	if c.CrossTraffic {
		return "crosstraffic"
	}
	return ""
}

func serverTestcase(c *Case) string {
	if c.ServerTestcase != "" {
		return c.ServerTestcase
	}
	return c.Testcase
}

// waitClient waits for the client to exit, at most limit, and returns its exit code; when the
// server exits with 127 first (it does not support the case), it returns at once with that code
// instead of letting the client retry until the time limit.
// A sim that exits while the client runs (killed, crashed) ends the wait at once with an error
// naming it: the client would otherwise be blamed for the network vanishing under it.
func (r *Runner) waitClient(ctx context.Context, cell *topology.Cell, limit time.Duration) (code, serverCode int, err error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type exit struct {
		code int
		err  error
	}
	wait := func(service string) chan exit {
		ch := make(chan exit, 1)
		go func() {
			c, err := cell.WaitExit(wctx, service, limit)
			ch <- exit{c, err}
		}()
		return ch
	}
	cli, srv, net := wait("client"), wait("server"), wait("sim")
	for {
		select {
		case e := <-cli:
			return e.code, -1, e.err
		case e := <-srv:
			if e.err == nil && e.code == 127 {
				return -1, 127, nil
			}
			srv = nil // any other server exit: the client's verdict (and the reason) decides
		case e := <-net:
			if e.err == nil {
				return -1, -1, fmt.Errorf("the sim died (exit %d) while the client ran", e.code)
			}
			net = nil
		}
	}
}

// verify runs the case's checks: the download comparison here, the rest on the trace (which
// also measures goodput for a measurement).
func (r *Runner) verify(ctx context.Context, dir string, c *Case, names []string) TraceVerdict {
	var traceChecks []Check
	for _, chk := range c.CheckList {
		if chk.Name == "files" {
			if err := CompareDownloads(filepath.Join(dir, "www"), filepath.Join(dir, "downloads"), names); err != nil {
				return TraceVerdict{Reason: err.Error()}
			}
			continue
		}
		traceChecks = append(traceChecks, chk)
	}
	if len(traceChecks) == 0 && !c.IsMeasurement() {
		return TraceVerdict{}
	}
	if r.Trace == nil {
		return TraceVerdict{Reason: "trace checks: no trace checker in this build"}
	}
	v, err := r.Trace.Check(ctx, dir, c, traceChecks, names)
	if err != nil {
		return TraceVerdict{Reason: "trace analysis: " + err.Error()}
	}
	return v
}
