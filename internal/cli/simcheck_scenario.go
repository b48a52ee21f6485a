package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/profile"
	"github.com/wirelab/wirelab/internal/run"
	"github.com/wirelab/wirelab/internal/schedlag"
	"github.com/wirelab/wirelab/internal/simcheck"
	"github.com/wirelab/wirelab/internal/simstats"
	"github.com/wirelab/wirelab/internal/topology"
)

// probeRTT and probeRate mirror the JSON wirelab/probe prints.
type probeRTT struct {
	Sent           int     `json:"sent"`
	Received       int     `json:"received"`
	P50Ms          float64 `json:"rtt_p50_ms"`
	P99Ms          float64 `json:"rtt_p99_ms"`
	LongestLossRun int     `json:"longest_loss_run"`
}

type probeRate struct {
	Mbps float64 `json:"mbit_per_s"`
	PPS  float64 `json:"packets_per_s"`
}

// runScenario brings up one cell with probe endpoints behind the sim, measures and checks.
func runScenario(ctx context.Context, e *env, r *run.Run, compose *docker.Compose, alloc *topology.Allocator,
	s simcheck.Scenario, p *profile.Resolved, seed uint64) (sr scenarioResult) {
	exp := simcheck.Expect(p, simcheck.ProbeIPBytes)
	sr = scenarioResult{Name: s.Name, Profile: p.Name, Expected: exp, Probes: map[string]json.RawMessage{}}
	subnets, release, err := alloc.Allocate(ctx, e.docker, r.ID+"/"+s.Name)
	if err != nil {
		sr.Error = err.Error()
		return sr
	}
	defer release()
	capture := "0"
	if s.Capture {
		capture = "1"
	}
	cell := topology.NewCell(r, compose, e.root, s.Name, subnets, map[string]string{
		"CLIENT_IMAGE": "wirelab/probe:latest", "SERVER_IMAGE": "wirelab/probe:latest",
		"SIM_PROFILE": p.Name, "SIM_SEED": strconv.FormatUint(seed, 10), "SIM_CAPTURE": capture,
		"SIM_ENGINE": cmp.Or(s.Engine, "userspace"), "SIM_OFFLOAD": map[bool]string{false: "1", true: "0"}[s.NoOffload],
	}).MoveWith(alloc, e.docker, r.ID+"/"+s.Name)
	sr.Rerun = cell.RerunCommand()
	defer func() { // named result: the sim's final stats.json exists only after it stopped
		if err := cell.Stop(context.Background()); err != nil && sr.Error == "" {
			sr.Error = err.Error()
		}
		if st, err := os.ReadFile(filepath.Join(cell.Dir, "sim", simstats.File)); err == nil {
			sr.SimStats = st
		}
	}()
	if err := cell.Up(ctx); err != nil {
		sr.Error = err.Error()
		return sr
	}
	probe := func(key string, args ...string) ([]byte, error) {
		out, err := cell.Exec(ctx, "client", append([]string{"probe"}, args...)...)
		if err == nil {
			sr.Probes[key] = json.RawMessage(out)
		}
		return out, err
	}
	// The client's entrypoint waits for the sim's readiness port; so does this, before measuring.
	if _, err := cell.Exec(ctx, "client", "/wait-for-it.sh", "sim:57832", "-q", "-s", "-t", "30"); err != nil {
		sr.Error = "sim not ready: " + err.Error()
		return sr
	}
	if s.RTTCount > 0 && s.BlackholeMs == 0 && s.Rebinds == 0 {
		// Warm-up, not counted: the first second after the containers start (runtimes, caches,
		// neighbour discovery) is measurably slower than steady state on this machine.
		_, _ = cell.Exec(ctx, "client", "probe", "rtt", "-server", "server4:5201", "-count", "500", "-interval", "1ms", "-grace", "1s")
	}
	var m probeRTT
	if s.RTTCount > 0 {
		// The machine, measured while the probes measure the sim; without it nothing is excused.
		lag, lagErr := startLag(ctx, e.docker, r.ID, cell.Project()+"-lag")
		out, err := probe("rtt", "rtt", "-server", "server4:5201", "-count", strconv.Itoa(s.RTTCount),
			"-interval", s.RTTInterval.String(), "-grace", (time.Duration(exp.RTTms*float64(time.Millisecond)) + 2*time.Second).String())
		if lagErr == nil {
			var m schedlag.Summary
			if m, lagErr = lag.stop(context.Background()); lagErr == nil {
				sr.Machine = &m
			}
		}
		if lagErr != nil {
			sr.MachineError = lagErr.Error()
		}
		if err == nil {
			err = json.Unmarshal(out, &m)
		}
		if err != nil {
			sr.Error = err.Error()
			return sr
		}
		if s.P50Check {
			sr.Checks = append(sr.Checks, simcheck.RTTP50(s.Name, exp.RTTms, m.P50Ms))
		}
		if s.P99Check {
			sr.Checks = append(sr.Checks, simcheck.RTTP99(s.Name, exp.RTTms, exp.JitterMs, m.P99Ms))
		}
		if s.LossCheck {
			want := exp.RoundTripLoss
			if s.CorruptLoss {
				want = exp.RoundTripCorrupt
			}
			sr.Checks = append(sr.Checks, simcheck.Loss(s.Name, "round_trip_loss", want, m.Sent-m.Received, m.Sent))
		}
		if s.BlackholeMs > 0 {
			sr.Checks = append(sr.Checks, simcheck.Blackhole(s.Name, s.BlackholeMs, float64(s.RTTInterval)/float64(time.Millisecond), m.LongestLossRun))
		}
	}
	for _, dir := range s.Rates {
		configured := exp.DownMbps
		if dir == "up" {
			configured = exp.UpMbps
		}
		send := fmt.Sprintf("%.0fbit", configured*1e6*1.25)
		args := []string{"rate", "-server", "server4:5201", "-dir", dir, "-rate", send, "-duration", "4s"}
		if s.RateGSO {
			args = append(args, "-gso", "32")
		}
		out, err := probe("rate_"+dir, args...)
		var m probeRate
		if err == nil {
			err = json.Unmarshal(out, &m)
		}
		if err != nil {
			sr.Error = err.Error()
			return sr
		}
		sr.Checks = append(sr.Checks, simcheck.Rate(s.Name, "rate_"+dir, configured, m.Mbps))
	}
	if s.Capacity {
		for _, f := range simcheck.CapacityFlows() {
			args := []string{"rate", "-server", "server4:5201", "-dir", f.Dir, "-rate", "0", "-duration", "4s", "-size", strconv.Itoa(simcheck.CapacityPayload)}
			if f.GSOBatch > 0 {
				args = append(args, "-gso", strconv.Itoa(f.GSOBatch))
			}
			out, err := probe(f.Key, args...)
			var m probeRate
			if err == nil {
				err = json.Unmarshal(out, &m)
			}
			if err != nil {
				sr.Error = f.Key + ": " + err.Error()
				return sr
			}
			sr.Capacity = append(sr.Capacity, capacityResult{Flow: f.Key, Mbps: m.Mbps, PPS: m.PPS})
		}
	}
	if s.Engine == "kernel" {
		return sr // kernel forwarding counts nothing: no stats to judge by
	}
	// The sim's counters are evidence only once it stopped: fence the cell (endpoints, then the
	// sim, which writes its final stats.json) and read the final file.
	if err := cell.Fence(ctx); err != nil {
		sr.Error = err.Error()
		return sr
	}
	st, err := simstats.Read(cell.Dir)
	if err != nil {
		sr.Error = "sim stats: " + err.Error()
		return sr
	}
	if s.Rebinds > 0 {
		sr.Checks = append(sr.Checks, simcheck.Rebind(s.Name, s.Rebinds, p.Rebind, st, m.Sent-m.Received, m.Sent, 0.03)...)
	}
	if sr.Machine == nil {
		return sr // the machine was not measured: every check stands as it is
	}
	machine := simcheck.Machine{Lag: *sr.Machine}
	if len(s.Rates) == 0 && !s.Capacity { // only probes crossed the queue: its drops are theirs
		machine.QueueDrops = st.ToServer.Dropped.Queue + st.ToClient.Dropped.Queue
		machine.StallMs = float64(exp.QueueProbes) * float64(s.RTTInterval) / float64(time.Millisecond)
	}
	for i, c := range sr.Checks {
		sr.Checks[i] = machine.Judge(c)
	}
	return sr
}
