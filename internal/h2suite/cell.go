package h2suite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/capture"
	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/topology"
)

// memoryFile is where a probe cell keeps the server's memory samples over the probe.
const memoryFile = "server-memory.json"

// minMemorySamples is how many samples of the server's memory a probe's bound needs: the one
// before the client started and the one after it ended (the sampler takes both; any between
// are a bonus a busy engine may not give). Fewer means the engine did not answer, or the
// server was gone, and the bound could not be judged.
const minMemorySamples = 2

// Layout implements suite.Matrix: sim and server, the section's client once the server listens
// on TCP 443; a probe's server memory is sampled while the client runs.
func (m *Matrix) Layout(ctx context.Context, r *suite.Run, cell matrix.Cell, seed uint64, dir string) (lifecycle.Layout, error) {
	s, sec := m.byServer[cell.Server], m.bySection[cell.Case]
	l := lifecycle.Layout{Name: []string{s.Name, sec.Name}, Limit: m.limit(sec),
		Rerun: fmt.Sprintf("wirelab h2 --servers %s --cases %s --seed %d --profile %s%s", s.Name, sec.Name, seed, m.profile, m.rerunFlags)}
	if err := WriteContent(filepath.Join(dir, "www"), seed); err != nil {
		return l, err
	}
	params := sec.Params
	switch sec.Client {
	case ClientH2spec:
		params = fmt.Sprintf("--timeout %d %s", m.h2specTimeout(sec), sec.Params)
	case ClientH2check:
		params = fmt.Sprintf("%s -timeout %.2f", sec.Params, m.h2checkScale(sec))
	}
	l.Env = map[string]string{
		"CLIENT_IMAGE": "wirelab/" + sec.Client + ":latest", "SERVER_IMAGE": s.Image,
		"TESTCASE": sec.Testcase, "SERVER_TESTCASE": "h2", "CLIENT_PARAMS": strings.TrimSpace(params),
		"SIM_PROFILE": m.profileOf(sec), "SIM_SEED": strconv.FormatUint(seed, 10), "CERTS_DIR": r.CertsDir,
		"SIM_TCP_SNAP": "0", // HTTP/2 rides TCP: the traces keep it whole, to be decrypted
	}
	l.Peers = []lifecycle.Peer{{Service: "server", Listen: "tcp", Port: 443}}
	if sec.Client == ClientH2probe { // a probe's verdict includes how far the server's memory grew
		var mem *topology.MemorySampler
		l.Started = func(ctx context.Context, c *topology.Cell) error {
			mem = c.SampleMemory(ctx, "server", 500*time.Millisecond)
			return nil
		}
		l.Finished = func(_ context.Context, _ *topology.Cell) error {
			return jsonfile.Write(filepath.Join(dir, memoryFile), mem.Stop())
		}
	}
	return l, nil
}

// Verdict implements suite.Matrix: the client's report from the fenced cell — h2spec's JUnit,
// or the report.json / upload.json of wirelab's own clients. No report is a failure naming the
// client's last words.
func (m *Matrix) Verdict(ctx context.Context, _ *suite.Run, cell matrix.Cell, ev lifecycle.Evidence) matrix.Result {
	sec := m.bySection[cell.Case]
	m.decryptedTrace(ctx, ev.Dir)
	noReport := func(err error) matrix.Result {
		return matrix.Result{Result: matrix.Failed, Reason: fmt.Sprintf("%s (exit %d): %v; %s", sec.Client, ev.ClientExit, err, ev.ClientWords)}
	}
	logs := filepath.Join(ev.Dir, "client")
	var v matrix.Result
	switch sec.Client {
	case ClientH2spec:
		cases, err := ReadH2specJUnit(filepath.Join(logs, "junit.xml"))
		if err != nil {
			return noReport(err)
		}
		passed, reason, details := H2specVerdict(cases)
		v.Result, v.Reason, v.Details, v.BySubs = matrix.Failed, reason, details, true
		if passed {
			v.Result, v.Reason = matrix.Succeeded, ""
		}
		v.Subs = H2specSubs(cases)
	case ClientH2upload:
		u, err := ReadUpload(filepath.Join(logs, "upload.json"))
		if err != nil {
			return noReport(err)
		}
		v.Result, v.Reason, v.Values, v.Details = u.Verdict()
	case ClientH2probe:
		p, err := ReadProbeReport(filepath.Join(logs, "report.json"), sec.Name)
		if err != nil {
			return noReport(err)
		}
		var mem topology.MemorySamples
		if err := jsonfile.Read(filepath.Join(ev.Dir, memoryFile), &mem); err != nil {
			return noReport(err)
		}
		v.Result, v.Reason, v.Details = p.Verdict(mem.Peak - mem.First)
		if v.Result == matrix.Succeeded && mem.Samples < minMemorySamples {
			v.Result = matrix.Failed
			v.Reason = fmt.Sprintf("the memory bound was not judged: %d samples of the server's memory (want %d; %d failed: %s)",
				mem.Samples, minMemorySamples, mem.Errors, mem.LastError)
		}
	default:
		c, err := ReadH2checkReport(filepath.Join(logs, "report.json"), sec.Name)
		if err != nil {
			return noReport(err)
		}
		v.Result, v.Reason = c.Matrix(), c.Reason
		if c.SkippedAtRunTime() { // the server's behaviour left nothing to judge: not what the manifests declare
			v.Result = matrix.UnsupportedAtRunTime
		}
	}
	return v
}

// decryptedTrace leaves the server-side trace as sim/trace_node_right.pcapng with the cell's
// TLS secrets embedded (opens decrypted in Wireshark), when an endpoint wrote a keylog: h2spec
// writes none, so an h2spec cell is decrypted only where the server keylogs (go-h2, nodejs-h2).
// The verdicts do not read it: a missing pcapng costs the reader, not the verdict.
func (m *Matrix) decryptedTrace(ctx context.Context, dir string) {
	keys, err := capture.MergeKeylogs(dir)
	if err != nil || keys == "" || m.tshark == nil {
		return
	}
	if err := m.tshark.InjectSecrets(ctx, filepath.Join(dir, "sim", "trace_node_right.pcap"), keys,
		filepath.Join(dir, "sim", "trace_node_right.pcapng")); err != nil {
		_ = os.WriteFile(filepath.Join(dir, "sim", "pcapng-error.txt"), []byte(err.Error()+"\n"), 0o644)
	}
}
