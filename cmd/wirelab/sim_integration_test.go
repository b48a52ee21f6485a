package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/simcheck"
	"github.com/wirelab/wirelab/internal/topology"
)

type simScenario struct {
	Name     string            `json:"name"`
	Expected simcheck.Expected `json:"expected"`
	Checks   []simcheck.Check  `json:"checks"`
	Error    string            `json:"error"`
	Probes   map[string]struct {
		Sent       int     `json:"sent"`
		Received   int     `json:"received"`
		Mbps       float64 `json:"mbit_per_s"`
		P50Ms      float64 `json:"rtt_p50_ms"`
		LossRunMax int     `json:"longest_loss_run"`
	} `json:"probes"`
	SimStats struct {
		Seed     uint64 `json:"seed"`
		ToServer struct {
			Dropped map[string]int `json:"dropped"`
		} `json:"to_server"`
		ToClient struct {
			PacketsIn int            `json:"packets_in"`
			Dropped   map[string]int `json:"dropped"`
		} `json:"to_client"`
	} `json:"sim_stats"`
}

// The sim through the real topology: delay, 0% vs 5% loss, rate and a blackhole within bounds,
// with evidence (pcaps of both sides, stats.json), and the checks failing against the wrong
// expectations.
func TestIntegrationSimFidelityQuick(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-sim"), t.TempDir()
	code, log := wirelab(t, bin, "sim-check", "--quick", "--seed", "1234", "--run-id", id, "--out", out)
	t.Log(log)
	if code != 0 && onlyDelayFailed(log) {
		// The median RTT has ±1 ms of room and this 2-vCPU VM sometimes steals more than that
		// for seconds at a time (the sim's own release lateness shows it): measure the delay
		// scenario once more before calling it a failure. Loss, rate and the rest get no retry.
		retry := id + "-retry"
		code, log = wirelab(t, bin, "sim-check", "--quick", "--scenarios", "simple-p2p", "--seed", "1234", "--run-id", retry, "--out", t.TempDir())
		t.Log("retry of the delay scenario:\n" + log)
		assertNothingLeft(t, retry)
	}
	if code != 0 {
		t.Fatalf("sim-check exit %d", code)
	}
	assertNothingLeft(t, id)
	var res struct {
		Seed      uint64        `json:"seed"`
		Scenarios []simScenario `json:"scenarios"`
	}
	data, err := os.ReadFile(filepath.Join(out, "sim-check", id, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	by := map[string]simScenario{}
	for _, s := range res.Scenarios {
		by[s.Name] = s
		if s.Error != "" || len(s.Checks) == 0 {
			t.Errorf("%s: error %q, %d checks", s.Name, s.Error, len(s.Checks))
		}
		// A check the machine was too busy for is not a sim failure, but in CI it is a missing
		// prerequisite (a quiet machine), so it fails there instead of passing unseen.
		for _, c := range s.Checks {
			if c.NotJudged == "" {
				continue
			}
			if os.Getenv("CI") == "true" {
				t.Errorf("%s %s not judged: %s", s.Name, c.Metric, c.NotJudged)
			} else {
				t.Logf("%s %s not judged: %s", s.Name, c.Metric, c.NotJudged)
			}
		}
		if s.SimStats.Seed != 1234 {
			t.Errorf("%s: stats.json seed %d, want 1234", s.Name, s.SimStats.Seed)
		}
		for _, pcap := range []string{"trace_node_left.pcap", "trace_node_right.pcap"} {
			b, err := os.ReadFile(filepath.Join(out, "sim-check", id, s.Name, "sim", pcap))
			if err != nil || len(b) < 1000 || (string(b[:4]) != "\xd4\xc3\xb2\xa1" && string(b[:4]) != "\x4d\x3c\xb2\xa1") {
				t.Errorf("%s: %s missing or not a pcap with packets (%d bytes, %v)", s.Name, pcap, len(b), err)
			}
		}
	}
	// The sim's own counters agree with what the probes saw.
	if d := by["lossy-5"].SimStats.ToServer.Dropped["loss"] + by["lossy-5"].SimStats.ToClient.Dropped["loss"]; d < 500 {
		t.Errorf("lossy-5: sim dropped only %d packets for loss", d)
	}
	if d := by["lossy-0"].SimStats.ToClient.Dropped["loss"]; d != 0 {
		t.Errorf("lossy-0: sim dropped %d", d)
	}
	// Requests die in the hole on the way to the server, so few replies are left to drop.
	if bh := by["blackhole"].SimStats; bh.ToServer.Dropped["blackhole"]+bh.ToClient.Dropped["blackhole"] < 500 {
		t.Errorf("blackhole: sim blackholed only %d+%d packets", bh.ToServer.Dropped["blackhole"], bh.ToClient.Dropped["blackhole"])
	}
	// Each check fails against the wrong expectation: 0% and 5% are distinguishable, a 10 Mbit/s
	// link is not a 20 Mbit/s one, and an unimpaired probe run shows no blackhole gap.
	l0, l5 := by["lossy-0"].Probes["rtt"], by["lossy-5"].Probes["rtt"]
	if simcheck.Loss("x", "loss", by["lossy-5"].Expected.RoundTripLoss, l0.Sent-l0.Received, l0.Sent).Pass {
		t.Error("lossy-0's measurement passes as 5% loss")
	}
	if simcheck.Loss("x", "loss", 0, l5.Sent-l5.Received, l5.Sent).Pass {
		t.Error("lossy-5's measurement passes as 0% loss")
	}
	if simcheck.Rate("x", "rate", 20, by["simple-p2p"].Probes["rate_down"].Mbps).Pass {
		t.Error("10 Mbit/s measurement passes as 20 Mbit/s")
	}
	if simcheck.RTTP50("x", 60, by["simple-p2p"].Probes["rtt"].P50Ms).Pass {
		t.Error("a 30 ms RTT passes as 60 ms")
	}
	if simcheck.Blackhole("x", 2000, 2, l0.LossRunMax).Pass {
		t.Error("lossy-0's probes pass as blackholed")
	}
}

// With the engine's TUN device gone, the sim must not forward directly between the networks.
func TestIntegrationSimNeverBypassesEngine(t *testing.T) {
	bin := integration(t)
	id, logs := runID(t, "it-bypass"), t.TempDir()
	defer func() { wirelab(t, bin, "clean", "--run-id", id); assertNothingLeft(t, id) }()
	env := append(os.Environ(), "WIRELAB_RUN="+id, "WIRELAB_PROJECT=wirelab-"+id,
		"CLIENT_NET4=198.19.240", "SERVER_NET4=198.19.241", "CLIENT_NET6=fd00:5717:0:f0", "SERVER_NET6=fd00:5717:0:f1",
		"SIM_PROFILE=ideal", "SIM_CAPTURE=0", "CLIENT_IMAGE=wirelab/probe", "SERVER_IMAGE=wirelab/probe")
	for _, d := range []string{"SIM_LOGS", "CLIENT_LOGS", "SERVER_LOGS", "WWW_DIR", "DOWNLOADS_DIR", "CERTS_DIR", "CLIENT_WWW_DIR", "SERVER_DOWNLOADS_DIR"} {
		dir := filepath.Join(logs, d)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		env = append(env, d+"="+dir)
	}
	compose := func(args ...string) (string, error) {
		cmd := exec.Command("docker", append([]string{"compose", "-f", "../../compose/lab.yml"}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := compose("up", "-d"); err != nil {
		t.Fatalf("up: %v\n%s", err, out)
	}
	// The probe server listens before the first probe goes (the client would be refused).
	for deadline := time.Now().Add(30 * time.Second); ; {
		out, _ := compose("exec", "-T", "server", "cat", "/proc/net/udp", "/proc/net/udp6")
		if topology.ListensOn(out, "udp", 5201) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the probe server does not listen on UDP 5201:\n%s", out)
		}
	}
	rttTo := func(server string) string {
		out, _ := compose("exec", "-T", "client", "probe", "rtt", "-server", server, "-count", "200", "-interval", "2ms", "-grace", "1s")
		return out
	}
	rtt := func() string { return rttTo("server4:5201") }
	if out := rtt(); !strings.Contains(out, `"received":200`) {
		t.Fatalf("through the engine: %s", out)
	}
	if out := rttTo("server6:5201"); !strings.Contains(out, `"received":200`) {
		t.Fatalf("IPv6 through the engine: %s", out)
	}
	if out, err := compose("exec", "-T", "sim", "ip", "link", "delete", "tunc"); err != nil {
		t.Fatalf("delete tunc: %v %s", err, out)
	}
	if out := rtt(); !strings.Contains(out, `"received":0`) {
		t.Fatalf("traffic flowed without the engine: %s", out)
	}
}

// onlyDelayFailed reports whether the failed checks in a sim-check log are all rtt_p50 ones.
func onlyDelayFailed(log string) bool {
	failedAny := false
	for _, l := range strings.Split(log, "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "FAIL" {
			if f[2] != "rtt_p50" {
				return false
			}
			failedAny = true
		}
	}
	return failedAny
}
