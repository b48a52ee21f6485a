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
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/topology"
)

// runOnce runs one server x section cell once with its output in dir: sim and server first,
// the client once the server listens on TCP 443; then the cell is fenced (endpoints, then the
// sim, which seals its traces) before the client's report is read.
func (r *Runner) runOnce(ctx context.Context, s Server, sec *Section, dir string) (res matrix.Result) {
	res.Result = matrix.Failed
	_ = os.RemoveAll(dir) // --resume reruns a cell from scratch
	if err := WriteContent(filepath.Join(dir, "www"), r.Seed); err != nil {
		res.Reason = err.Error()
		return res
	}
	params := sec.Params
	switch sec.Client {
	case ClientH2spec:
		params = fmt.Sprintf("--timeout %d %s", r.h2specTimeout(sec), sec.Params)
	case ClientH2check:
		params = fmt.Sprintf("%s -timeout %.2f", sec.Params, r.h2checkScale(sec))
	}
	cell, release, err := r.Alloc.AllocateCell(ctx, r.Run, r.Compose, r.Root, dir, map[string]string{
		"CLIENT_IMAGE": "wirelab/" + sec.Client + ":latest", "SERVER_IMAGE": s.Image,
		"TESTCASE": sec.Testcase, "SERVER_TESTCASE": "h2", "CLIENT_PARAMS": strings.TrimSpace(params),
		"SIM_PROFILE": r.profile(sec), "SIM_SEED": strconv.FormatUint(r.Seed, 10), "CERTS_DIR": r.CertsDir,
		"SIM_TCP_SNAP": "0", // HTTP/2 rides TCP: the traces keep it whole, to be decrypted
	}, s.Name, sec.Name)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	defer release()
	res.Rerun = fmt.Sprintf("wirelab h2 --servers %s --cases %s --seed %d --profile %s%s", s.Name, sec.Name, r.Seed, r.Profile, r.RerunFlags)
	_ = cell.WriteRerun(res.Rerun)
	defer func() {
		if err := cell.Close(); err != nil && res.Reason == "" {
			res.Reason = err.Error()
		}
	}()
	if err := cell.StartServer(ctx, "tcp"); err != nil {
		if res.Reason = err.Error(); err == topology.ErrServerUnsupported {
			res.Result = matrix.Unsupported
		}
		return res
	}
	var mem *topology.MemorySampler
	if sec.Client == ClientH2probe { // a probe's verdict includes how far the server's memory grew
		mem = cell.SampleMemory(ctx, "server", 500*time.Millisecond)
	}
	err = cell.Up(ctx)
	code := -1
	if err == nil {
		code, err = cell.WaitExit(ctx, "client", r.limit(sec))
	}
	var memGrowth int64
	if mem != nil {
		first, peak, _ := mem.Stop()
		memGrowth = peak - first
	}
	if ctx.Err() != nil {
		return res
	}
	// A server that died under the client is the finding, whatever the client concluded.
	if state, _ := cell.State(context.Background(), "server"); !strings.HasPrefix(state, "running") {
		res.Reason = fmt.Sprintf("the server died during the cell (%s): %s", state, cell.LastLogLine("server"))
		return res
	}
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	if code == 127 {
		res.Result, res.Reason = matrix.Unsupported, "the client answered 127 (test case not supported)"
		return res
	}
	if err := cell.Fence(ctx); err != nil {
		res.Reason = err.Error()
		return res
	}
	r.decryptedTrace(ctx, dir)
	v := r.verdict(dir, sec, code, cell, memGrowth)
	res.Result, res.Reason, res.Details, res.Values = v.result, v.reason, v.details, v.values
	return res
}

type verdict struct {
	result, reason, details string
	values                  []float64
}

// verdict reads the client's report from the fenced cell: h2spec's JUnit, or the report.json /
// upload.json of wirelab's own clients. No report is a failure naming the client's last words.
func (r *Runner) verdict(dir string, sec *Section, code int, cell *topology.Cell, memGrowth int64) verdict {
	noReport := func(err error) verdict {
		return verdict{result: matrix.Failed, reason: fmt.Sprintf("%s (exit %d): %v; %s", sec.Client, code, err, cell.LastLogLine("client"))}
	}
	logs := filepath.Join(dir, "client")
	switch sec.Client {
	case ClientH2spec:
		cases, err := ReadH2specJUnit(filepath.Join(logs, "junit.xml"))
		if err != nil {
			return noReport(err)
		}
		passed, reason, details := H2specVerdict(cases)
		if passed {
			return verdict{result: matrix.Succeeded, details: details}
		}
		return verdict{result: matrix.Failed, reason: reason, details: details}
	case ClientH2upload:
		u, err := ReadUpload(filepath.Join(logs, "upload.json"))
		if err != nil {
			return noReport(err)
		}
		v := verdict{}
		v.result, v.reason, v.values, v.details = u.Verdict()
		return v
	case ClientH2probe:
		p, err := ReadProbeReport(filepath.Join(logs, "report.json"), sec.Name)
		if err != nil {
			return noReport(err)
		}
		v := verdict{}
		v.result, v.reason, v.details = p.Verdict(memGrowth)
		return v
	default:
		c, err := ReadH2checkReport(filepath.Join(logs, "report.json"), sec.Name)
		if err != nil {
			return noReport(err)
		}
		return verdict{result: c.Matrix(), reason: c.Reason}
	}
}

// decryptedTrace leaves the server-side trace as sim/trace_node_right.pcapng with the cell's
// TLS secrets embedded (opens decrypted in Wireshark), when an endpoint wrote a keylog: h2spec
// writes none, so an h2spec cell is decrypted only where the server keylogs (go-h2, nodejs-h2).
// The verdicts do not read it: a missing pcapng costs the reader, not the verdict.
func (r *Runner) decryptedTrace(ctx context.Context, dir string) {
	keys, err := capture.MergeKeylogs(dir)
	if err != nil || keys == "" || r.Tshark == nil {
		return
	}
	if err := r.Tshark.InjectSecrets(ctx, filepath.Join(dir, "sim", "trace_node_right.pcap"), keys,
		filepath.Join(dir, "sim", "trace_node_right.pcapng")); err != nil {
		_ = os.WriteFile(filepath.Join(dir, "sim", "pcapng-error.txt"), []byte(err.Error()+"\n"), 0o644)
	}
}
