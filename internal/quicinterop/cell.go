package quicinterop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/certs"
	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/topology"
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

// crossLog is where a crosstraffic cell keeps the competing flow's log (iperf3's server side).
const crossLog = "iperf_server.log"

// Layout implements suite.Matrix: the case's files (from the repetition's seed), the server and
// the client through the sim; a crosstraffic case adds a competing TCP flow that is under way
// before the client starts and stopped with the transfer.
func (m *Matrix) Layout(ctx context.Context, r *suite.Run, cell matrix.Cell, seed uint64, dir string) (lifecycle.Layout, error) {
	server, client, c := m.impls[cell.Server], m.impls[cell.Client], m.byCase[cell.Case]
	l := lifecycle.Layout{Name: []string{server.Name, client.Name, c.Name}, Limit: c.Limit, Undeclared: server.Testcases == nil || client.Testcases == nil,
		Rerun: fmt.Sprintf("wirelab quic --servers %s --clients %s --tests %s --seed %d", server.Name, client.Name, c.Name, seed)}
	if m.profile != "" {
		l.Rerun += " --profile " + m.profile
	}
	if why := joinReasons(m.compliant[server.Name+"/server"], m.compliant[client.Name+"/client"]); why != "" {
		return l, fmt.Errorf("%s", why)
	}
	names, err := GenerateFiles(filepath.Join(dir, "www"), c, seed)
	if err != nil {
		return l, err
	}
	var reqs []string
	for _, n := range names {
		reqs = append(reqs, "https://"+c.Host+":443/"+n)
	}
	profileRef := c.Profile
	if m.profile != "" {
		profileRef = m.profile
	}
	certDir := r.CertsDir
	if c.CertChain > 0 { // e.g. amplificationlimit: a long chain of this cell's own
		certDir = filepath.Join(dir, "certs")
		if err := certs.WriteChain(certDir, c.CertChain); err != nil {
			return l, err
		}
	}
	cc, _ := crossCC()
	l.Env = map[string]string{
		"CLIENT_IMAGE": client.Image, "SERVER_IMAGE": server.Image,
		"TESTCASE": c.Testcase, "SERVER_TESTCASE": serverTestcase(c), "REQUESTS": strings.Join(reqs, " "),
		"SIM_PROFILE": profileRef, "SIM_SEED": strconv.FormatUint(seed, 10), "CERTS_DIR": certDir,
		"COMPOSE_PROFILES": composeProfiles(c), "CROSS_CC": cc,
	}
	l.Peers = []lifecycle.Peer{{Service: "server", Listen: "udp", Port: 443}}
	if c.CrossTraffic {
		// The TCP flow is under way (its connection established) before the client starts, and
		// stops with the transfer, so the trace ends with it too.
		// Both end with the transfer (Finished stops them): the flow's log, not their exits, says whether it ran.
		l.Peers = append(l.Peers, lifecycle.Peer{Service: "iperf_server", Listen: "tcp", Port: iperfPort, Ends: true},
			lifecycle.Peer{Service: "iperf_client", Ends: true})
		l.Started = func(ctx context.Context, cell *topology.Cell) error {
			if err := cell.WaitConnected(ctx, "iperf_server", iperfPort, 20*time.Second); err != nil {
				return fmt.Errorf("cross traffic: the competing TCP flow did not start (%v); iperf client: %s", err, cell.LastLogLine("iperf_client"))
			}
			return nil
		}
		l.Finished = func(ctx context.Context, cell *topology.Cell) error {
			_ = cell.Cmd(context.Background(), "stop", "-t", "1", "iperf_client", "iperf_server").Run()
			log, _ := r.Run.Docker.Cmd(context.Background(), "logs", cell.Container("iperf_server")).CombinedOutput()
			return os.WriteFile(filepath.Join(dir, crossLog), log, 0o644)
		}
	}
	return l, nil
}

// iperfPort is where the competing flow's iperf3 server listens.
const iperfPort = 5201

// Verdict implements suite.Matrix: the client's exit, the downloads, the trace checks (and a
// measurement's value), the competing flow's rate — read from the fenced cell.
func (m *Matrix) Verdict(ctx context.Context, _ *suite.Run, cell matrix.Cell, ev lifecycle.Evidence) (res matrix.Result) {
	c := m.byCase[cell.Case]
	res.Result = matrix.Failed
	names := servedFiles(ev.Dir)
	if c.CrossTraffic {
		log, _ := os.ReadFile(filepath.Join(ev.Dir, crossLog))
		kbps, err := crossTrafficKbps(log)
		if err != nil && ev.ClientExit == 0 {
			res.Reason = err.Error()
			return res
		}
		res.Cross = []float64{kbps}
	}
	if ev.ClientExit != 0 {
		res.Reason = fmt.Sprintf("client exited %d (%s): %s", ev.ClientExit, downloadCount(ev.Dir, names), ev.ClientWords)
		return res
	}
	if err := impairmentHappened(ev.Dir, c.Impaired); err != nil {
		res.Reason = err.Error()
		return res
	}
	v := m.verify(ctx, ev.Dir, c, names)
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

// Combine implements suite.Combiner: a measurement's details are the mean and spread of its
// repetitions (and of the competing flow), as upstream writes them.
func (m *Matrix) Combine(_ *suite.Run, res matrix.Result) matrix.Result {
	if !m.byCase[res.Case].IsMeasurement() || res.Result != matrix.Succeeded {
		return res
	}
	res.Details = measurementDetails(res.Values)
	if len(res.Cross) > 0 {
		_, note := crossCC()
		res.Details += fmt.Sprintf("; competing TCP flow (%s) %.0f kbps", note, mean(res.Cross))
	}
	return res
}

// servedFiles are the names of the files the cell served (its www folder), sorted.
func servedFiles(dir string) []string {
	entries, _ := os.ReadDir(filepath.Join(dir, "www"))
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
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

// verify runs the case's checks: the download comparison here, the rest on the trace (which
// also measures goodput for a measurement).
func (m *Matrix) verify(ctx context.Context, dir string, c *Case, names []string) TraceVerdict {
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
	if m.trace == nil {
		return TraceVerdict{Reason: "trace checks: no trace checker in this build"}
	}
	v, err := m.trace.Check(ctx, dir, c, traceChecks, names)
	if err != nil {
		return TraceVerdict{Reason: "trace analysis: " + err.Error()}
	}
	return v
}
