package grpcwebsuite

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/topology"
)

// converterPorts are where the converters listen: the edge takes HTTP/2 gRPC on 443, the origin
// HTTP/1.1 gRPC-web on 80 (compose/lab.yml, images/grpcweb-converter/run_endpoint.sh).
var converterPorts = map[string]int{"edge": 443, "origin": 80}

// runOnce runs one cell once with its output in dir: sim, server and the chain's converters
// first, the client once all of them listen; the client's exit status is the case's outcome
// (the interop client exits 1 with a FATAL line naming what it got). The cell is fenced before
// the verdict is written, so its traces are complete.
func (r *Runner) runOnce(ctx context.Context, ch *Chain, s, cl Image, c *Case, dir string) (res matrix.Result) {
	res.Result = matrix.Failed
	_ = os.RemoveAll(dir) // --resume reruns a cell from scratch
	if err := os.MkdirAll(dir, 0o755); err != nil {
		res.Reason = err.Error()
		return res
	}
	env := map[string]string{
		"CLIENT_IMAGE": cl.Ref, "SERVER_IMAGE": s.Ref, "TESTCASE": c.Testcase,
		"SIM_PROFILE": r.Profile, "SIM_SEED": strconv.FormatUint(r.Seed, 10), "CERTS_DIR": r.CertsDir,
		"SIM_TCP_SNAP": "0", // the trace keeps the gRPC / gRPC-web bytes whole
		"GRPC_TARGET":  "server4:443",
	}
	extra := []string{}
	if !ch.Direct() {
		origin := r.Converters[ch.Origin]
		if ch.OriginImageEnv != "" {
			origin = r.Getenv(ch.OriginImageEnv)
		}
		env["COMPOSE_PROFILES"], env["GRPC_TARGET"] = "grpcweb", "edge:443"
		env["EDGE_IMAGE"], env["ORIGIN_IMAGE"] = r.Converters[ch.Edge], origin
		env["EDGE_PARAMS"], env["ORIGIN_PARAMS"] = ch.EdgeParams, ch.OriginParams
		extra = []string{"edge", "origin"}
	}
	cell, release, err := r.Alloc.AllocateCell(ctx, r.Run, r.Compose, r.Root, dir, env, ch.Name, s.Name, cl.Name, c.Name)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	defer release()
	res.Rerun = fmt.Sprintf("wirelab grpcweb --chains %s --servers %s --clients %s --cases %s --seed %d --profile %s%s",
		ch.Name, s.Name, cl.Name, c.Name, r.Seed, r.Profile, r.RerunFlags)
	_ = cell.WriteRerun(res.Rerun)
	defer func() {
		if err := cell.Close(); err != nil && res.Reason == "" {
			res.Reason = err.Error()
		}
	}()
	if err := cell.StartServer(ctx, "tcp", extra...); err != nil {
		if res.Reason = err.Error(); err == topology.ErrServerUnsupported {
			res.Result = matrix.Unsupported
		}
		return res
	}
	for _, conv := range extra {
		if exited, code := cell.WaitListening(ctx, conv, "tcp", converterPorts[conv], 20*time.Second); exited {
			res.Reason = fmt.Sprintf("the %s converter exited %d before the client started: %s", conv, code, cell.LastLogLine(conv))
			return res
		}
	}
	err = cell.Up(ctx)
	code := -1
	if err == nil {
		code, err = cell.WaitExit(ctx, "client", r.limit(c))
	}
	if ctx.Err() != nil {
		return res
	}
	// A hop that died under the call is the finding, whatever the client concluded.
	for _, svc := range append([]string{"server"}, extra...) {
		if state, _ := cell.State(context.Background(), svc); !strings.HasPrefix(state, "running") {
			res.Reason = fmt.Sprintf("the %s died during the call (%s): %s", svc, state, cell.LastLogLine(svc))
			return res
		}
	}
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	words := cell.LastLogLine("client")
	if err := cell.Fence(ctx); err != nil {
		res.Reason = err.Error()
		return res
	}
	res.Result, res.Reason = outcome(code, words)
	return res
}

// outcome is the interop client's verdict: exit 0 passed, 127 unsupported, anything else
// failed with its last words (grpc-go's client logs "FATAL: ... rpc error: code = ... desc = ...").
func outcome(code int, lastWords string) (string, string) {
	switch code {
	case 0:
		return matrix.Succeeded, ""
	case 127:
		return matrix.Unsupported, "the client answered 127 (test case not supported)"
	}
	if i := strings.Index(lastWords, "FATAL: "); i >= 0 {
		lastWords = lastWords[i+len("FATAL: "):]
	}
	return matrix.Failed, fmt.Sprintf("client exit %d: %s", code, lastWords)
}
