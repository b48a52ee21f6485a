package grpcwebsuite

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
)

// converterPorts are where the converters listen: the edge takes HTTP/2 gRPC on 443, the origin
// HTTP/1.1 gRPC-web on 80 (compose/lab.yml, images/grpcweb-converter/run_endpoint.sh).
var converterPorts = map[string]int{"edge": 443, "origin": 80}

// listener is a service the runner waits for before the client starts.
type listener struct {
	service string
	port    int
}

// layout is one cell's topology: the compose environment, the services started before the
// client (besides the sim), and which of them must listen first. The case's kind decides
// (cases.go): most kinds take the whole chain; an edge case puts the probe in the origin slot
// and starts no server; an origin case starts no edge and sends the client to the origin.
func (r *Runner) layout(ch *Chain, s, cl Image, c *Case) (env map[string]string, services []string, waits []listener) {
	env = map[string]string{
		"CLIENT_IMAGE": cl.Ref, "SERVER_IMAGE": s.Ref, "TESTCASE": c.Testcase,
		"SIM_PROFILE": r.Profile, "SIM_SEED": strconv.FormatUint(r.Seed, 10), "CERTS_DIR": r.CertsDir,
		"SIM_TCP_SNAP": "0", // the trace keeps the gRPC / gRPC-web bytes whole
		"PROBE_RTT":    r.RTT.String(),
		"GRPC_TARGET":  "server4:443", "GRPCWEB_TARGET": "server4:443",
	}
	if c.Kind == KindBench { // tens of thousands of calls: headers only, not gigabytes of payload
		env["SIM_TCP_SNAP"] = ""
	}
	server := func() {
		services = append(services, "server")
		if !c.Down || c.Kind != KindChain {
			waits = append(waits, listener{"server", 443})
		}
	}
	if ch.Direct() {
		server()
		return env, services, waits
	}
	origin := r.Converters[ch.Origin]
	if ch.OriginImageEnv != "" {
		origin = r.Getenv(ch.OriginImageEnv)
	}
	env["COMPOSE_PROFILES"] = "grpcweb"
	env["EDGE_IMAGE"], env["ORIGIN_IMAGE"] = r.Converters[ch.Edge], origin
	env["EDGE_PARAMS"], env["ORIGIN_PARAMS"] = ch.EdgeParams, ch.OriginParams
	env["GRPC_TARGET"], env["GRPCWEB_TARGET"] = "edge:443", "origin:80"
	switch c.Kind {
	case KindEdge: // the probe plays the origin; no server behind it
		env["ORIGIN_IMAGE"], env["ORIGIN_PARAMS"] = s.Ref, ""
		services = []string{"edge", "origin"}
		waits = []listener{{"edge", converterPorts["edge"]}}
		if !c.Down {
			waits = append(waits, listener{"origin", converterPorts["origin"]})
		}
	case KindOrigin: // the client speaks gRPC-web to the origin itself
		env["GRPC_TARGET"] = "origin:80"
		server()
		services = append(services, "origin")
		waits = append(waits, listener{"origin", converterPorts["origin"]})
	default:
		server()
		services = append(services, "edge", "origin")
		waits = append(waits, listener{"edge", converterPorts["edge"]}, listener{"origin", converterPorts["origin"]})
	}
	return env, services, waits
}

// runOnce runs one cell once with its output in dir: sim, server and the chain's converters
// first (as the case's kind lays them out), the client once they listen; the client's exit
// status is the case's outcome (the interop client exits 1 with a FATAL line naming what it got,
// the probe with a FAIL line). The cell is fenced before the verdict is written, so its traces
// and logs are complete.
func (r *Runner) runOnce(ctx context.Context, ch *Chain, s, cl Image, c *Case, dir string) (res matrix.Result) {
	res.Result = matrix.Failed
	_ = os.RemoveAll(dir) // --resume reruns a cell from scratch
	if err := os.MkdirAll(dir, 0o755); err != nil {
		res.Reason = err.Error()
		return res
	}
	env, services, waits := r.layout(ch, s, cl, c)
	cell, release, err := r.Alloc.AllocateCell(ctx, r.Run, r.Compose, r.Root, dir, env, ch.Name, s.Name, cl.Name, c.Name)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	defer release()
	res.Rerun = fmt.Sprintf("wirelab grpcweb --chains %s --cases %s --seed %d --profile %s%s", ch.Name, c.Name, r.Seed, r.Profile, r.RerunFlags)
	if c.Kind == KindInterop || c.Kind == KindBench {
		res.Rerun = strings.Replace(res.Rerun, " --cases", fmt.Sprintf(" --servers %s --clients %s --cases", s.Name, cl.Name), 1)
	}
	_ = cell.WriteRerun(res.Rerun)
	defer func() {
		if err := cell.Close(); err != nil && res.Reason == "" {
			res.Reason = err.Error()
		}
	}()
	if err := cell.Up(ctx, append([]string{"sim"}, services...)...); err != nil {
		res.Reason = err.Error()
		return res
	}
	for _, w := range waits {
		if exited, code := cell.WaitListening(ctx, w.service, "tcp", w.port, 20*time.Second); exited {
			if res.Reason = fmt.Sprintf("the %s exited %d before the client started: %s", w.service, code, cell.LastLogLine(w.service)); code == 127 {
				res.Result = matrix.Unsupported
			}
			return res
		}
	}
	err = cell.Up(ctx, "client")
	code := -1
	if err == nil {
		code, err = cell.WaitExit(ctx, "client", r.limit(c))
	}
	if ctx.Err() != nil {
		return res
	}
	// A hop that died under the call is the finding, whatever the client concluded.
	for _, svc := range services {
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
	if err := cell.Fence(ctx, converters(services)...); err != nil {
		res.Reason = err.Error()
		return res
	}
	res.Result, res.Reason = outcome(code, words)
	if c.Kind == KindBench && res.Result == matrix.Succeeded {
		res.Details, err = benchDetails(dir)
		if err != nil {
			res.Result, res.Reason = matrix.Failed, err.Error()
		}
	}
	return res
}

// converters are the edge and origin among a cell's services (Fence stops them with the ends).
func converters(services []string) []string {
	var out []string
	for _, s := range services {
		if s == "edge" || s == "origin" {
			out = append(out, s)
		}
	}
	return out
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
	for _, mark := range []string{"FATAL: ", "FAIL: "} { // grpc-go's interop client, the probe
		if i := strings.Index(lastWords, mark); i >= 0 {
			lastWords = lastWords[i+len(mark):]
			break
		}
	}
	return matrix.Failed, fmt.Sprintf("client exit %d: %s", code, lastWords)
}
