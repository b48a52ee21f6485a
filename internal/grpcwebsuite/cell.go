package grpcwebsuite

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// converterPorts are where the converters listen: the edge takes HTTP/2 gRPC on 443, the origin
// HTTP/1.1 gRPC-web on 80 (compose/lab.yml, images/grpcweb-converter/run_endpoint.sh).
var converterPorts = map[string]int{"edge": 443, "origin": 80}

// layout is one cell's topology: the compose environment and the peers started before the
// client (besides the sim), each waited for until it listens unless it plays an upstream that
// is down. The case's kind decides (cases.go): most kinds take the whole chain; an edge case puts
// the probe in the origin slot and starts no server; an origin case starts no edge and sends the
// client to the origin.
func (m *Matrix) layout(ch *Chain, s, cl Image, c *Case, seed uint64, certs string) (env map[string]string, peers []lifecycle.Peer) {
	env = map[string]string{
		"CLIENT_IMAGE": cl.Ref, "SERVER_IMAGE": s.Ref, "TESTCASE": c.Testcase,
		"SIM_PROFILE": m.profile, "SIM_SEED": strconv.FormatUint(seed, 10), "CERTS_DIR": certs,
		"SIM_TCP_SNAP": "0", // the trace keeps the gRPC / gRPC-web bytes whole
		"PROBE_RTT":    m.rtt.String(),
		"GRPC_TARGET":  "server4:443", "GRPCWEB_TARGET": "server4:443",
	}
	if c.Kind == KindBench { // tens of thousands of calls: headers only, not gigabytes of payload
		env["SIM_TCP_SNAP"] = ""
	}
	peer := func(service string, listens bool) lifecycle.Peer {
		p := lifecycle.Peer{Service: service}
		if listens {
			p.Listen, p.Port = "tcp", converterPorts[service]
		}
		return p
	}
	server := func() {
		peers = append(peers, lifecycle.Peer{Service: "server"})
		if !c.Down || c.Kind != KindChain {
			peers[len(peers)-1].Listen, peers[len(peers)-1].Port = "tcp", 443
		}
	}
	if ch.Direct() {
		server()
		return env, peers
	}
	origin := m.converters[ch.Origin]
	if ch.OriginImageEnv != "" {
		origin = m.getenv(ch.OriginImageEnv)
	}
	env["COMPOSE_PROFILES"] = "grpcweb"
	env["EDGE_IMAGE"], env["ORIGIN_IMAGE"] = m.converters[ch.Edge], origin
	env["EDGE_PARAMS"], env["ORIGIN_PARAMS"] = ch.EdgeParams, ch.OriginParams
	env["GRPC_TARGET"], env["GRPCWEB_TARGET"] = "edge:443", "origin:80"
	switch c.Kind {
	case KindEdge: // the probe plays the origin; no server behind it
		env["ORIGIN_IMAGE"], env["ORIGIN_PARAMS"] = s.Ref, ""
		peers = []lifecycle.Peer{peer("edge", true), peer("origin", !c.Down)}
	case KindOrigin: // the client speaks gRPC-web to the origin itself
		env["GRPC_TARGET"] = "origin:80"
		server()
		peers = append(peers, peer("origin", true))
	default:
		server()
		peers = append(peers, peer("edge", true), peer("origin", true))
	}
	return env, peers
}

// Layout implements suite.Matrix: sim, server and the chain's converters first (as the case's
// kind lays them out), the client once they listen.
func (m *Matrix) Layout(_ context.Context, r *suite.Run, mc matrix.Cell, seed uint64, _ string) (lifecycle.Layout, error) {
	ch, s, cl, c := m.chainsByName[mc.Get(AxisChain)], m.images[mc.Server], m.images[mc.Client], m.casesByName[mc.Case]
	l := lifecycle.Layout{Name: []string{ch.Name, s.Name, cl.Name, c.Name}, Limit: m.limit(c),
		Rerun: fmt.Sprintf("wirelab grpcweb --chains %s --cases %s --seed %d --profile %s%s", ch.Name, c.Name, seed, m.profile, m.rerunFlags)}
	if c.Kind == KindInterop || c.Kind == KindBench {
		l.Rerun = strings.Replace(l.Rerun, " --cases", fmt.Sprintf(" --servers %s --clients %s --cases", s.Name, cl.Name), 1)
	}
	if ok, why := m.supports(ch); !ok {
		return l, lifecycle.Unsupported{Why: why}
	}
	l.Env, l.Peers = m.layout(ch, s, cl, c, seed, r.CertsDir)
	return l, nil
}

// Verdict implements suite.Matrix: the client's exit status is the case's outcome (the interop
// client exits 1 with a FATAL line naming what it got, the probe with a FAIL line); a bench
// cell's numbers are read from the fenced cell.
func (m *Matrix) Verdict(_ context.Context, _ *suite.Run, mc matrix.Cell, ev lifecycle.Evidence) (res matrix.Result) {
	res.Result, res.Reason = outcome(ev.ClientExit, ev.ClientWords)
	if c := m.casesByName[mc.Case]; c.Observed && res.Result == matrix.Succeeded {
		// What the gRPC server behind the chain saw, written as it stopped (the fence): a
		// cancel that arrived as a clean end, a deadline that did not arrive.
		if err := c.JudgeObserved(ev.Dir); err != nil {
			res.Result, res.Reason = matrix.Failed, err.Error()
		}
	}
	if m.casesByName[mc.Case].Kind == KindConformance {
		// Each connectrpc case is a result of its own; a cell that listed its cases and failed
		// failed by them (without the list, the cell is judged by itself).
		if subs, err := ConformanceSubs(ev.Dir); err == nil {
			res.Subs, res.BySubs = subs, res.Result == matrix.Failed
		}
	}
	if m.casesByName[mc.Case].Kind == KindBench && res.Result == matrix.Succeeded {
		var err error
		if res.Details, err = benchDetails(ev.Dir); err != nil {
			res.Result, res.Reason = matrix.Failed, err.Error()
		}
	}
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
	for _, mark := range []string{"FATAL: ", "FAIL: "} { // grpc-go's interop client, the probe
		if i := strings.Index(lastWords, mark); i >= 0 {
			lastWords = lastWords[i+len(mark):]
			break
		}
	}
	return matrix.Failed, fmt.Sprintf("client exit %d: %s", code, lastWords)
}
