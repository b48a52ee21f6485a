package livefuzz

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/topology"
)

// The cell's files: what the liveness oracle fetches (server www), what the client reads (its
// www) and writes (its logs), and what the lifecycle hooks measured of the server.
const (
	livenessFile  = "livefuzz.txt"
	clientConfig  = "www-client/fuzz/config.json"
	fuzzOut       = "client/fuzz"
	resourcesFile = "server-resources.json"
	idleWindow    = 2 * time.Second
	// The fuzzing client's max_idle_timeout (images/quicfuzz/livefuzz/session.py; a test keeps
	// the two equal): no fuzzed connection may outlive it by RFC 9000 §10.1, so a server still
	// busy that long after the client stopped (plus 3 PTOs of closing or draining) is spinning.
	fuzzIdleTimeout = 10 * time.Second
	idleGrace       = fuzzIdleTimeout + 3*time.Second
)

// config is /www/fuzz/config.json, what the fuzzing client runs by.
type config struct {
	Mode          string  `json:"mode"`
	Target        string  `json:"target"`
	Campaign      string  `json:"campaign"`
	ALPN          string  `json:"alpn"`
	Server        string  `json:"server"`
	Port          int     `json:"port"`
	Path          string  `json:"path"`
	SHA256        string  `json:"sha256"`
	DurationS     float64 `json:"duration_s"`
	Seed          uint64  `json:"seed"`
	LivenessEvery int     `json:"liveness_every"`
	Rules         []*Rule `json:"rules"`
	SeedsDir      string  `json:"seeds_dir,omitempty"`
	CorpusDir     string  `json:"corpus_dir,omitempty"`
	ReplayFile    string  `json:"replay_file,omitempty"`
	OutDir        string  `json:"out_dir"`
}

// resources is what the lifecycle hooks measured of the server (resourcesFile).
type resources struct {
	Memory  topology.MemorySamples `json:"memory"`
	IdleCPU float64                `json:"idle_cpu_cores"` // over idleWindow once the client stopped (or its connections' idle timeout passed)
	// BusyAtStop is the first window's figure when it was past the bound: the server was still
	// at work on the fuzzed connections, so IdleCPU was measured again after idleGrace.
	BusyAtStop float64 `json:"busy_at_stop_cores,omitempty"`
	Measured   bool    `json:"measured"`
}

// Layout implements suite.Matrix.
func (m *Matrix) Layout(ctx context.Context, r *suite.Run, cell matrix.Cell, seed uint64, dir string) (lifecycle.Layout, error) {
	t, c := m.impls[cell.Server], m.byCampaign[cell.Case]
	fseed := seed
	if m.fuzzSeed != 0 {
		fseed = m.fuzzSeed
	}
	l := lifecycle.Layout{Name: []string{t.Name, c.Name}, Undeclared: t.Testcases == nil,
		Rerun: fmt.Sprintf("wirelab %s --target %s --campaigns %s --duration %s --fuzz-seed %d", Name, t.Name, c.Name, m.duration, fseed)}
	body := make([]byte, m.bounds.LivenessFileBytes)
	rng := rand.New(rand.NewPCG(seed, 0x11fe))
	for i := range body {
		body[i] = byte('a' + rng.IntN(26))
	}
	sum := sha256.Sum256(body)
	for _, d := range []string{"www", "www-client/fuzz"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return l, err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "www", livenessFile), body, 0o644); err != nil {
		return l, err
	}
	cfg := config{Mode: "campaign", Target: t.Name, Campaign: c.Name, ALPN: c.ALPN, Server: "server4", Port: 443,
		Path: "/" + livenessFile, SHA256: hex.EncodeToString(sum[:]), DurationS: m.duration.Seconds(), Seed: fseed,
		LivenessEvery: 25, Rules: m.rules, OutDir: "/logs/fuzz"}
	limit := m.duration + 5*time.Minute // the seeds and liveness checks come on top of the duration
	testcase := "fuzz"
	if m.replay != nil {
		cfg.Mode, testcase, limit = "replay", "replay", 3*time.Minute
		cfg.ReplayFile = "/www/fuzz/replay.json"
		if err := copyFile(filepath.Join(m.replay.Dir, "inputs.json"), filepath.Join(dir, "www-client/fuzz/replay.json")); err != nil {
			return l, err
		}
		l.Rerun = fmt.Sprintf("wirelab %s --replay %s", Name, m.replay.Dir)
	} else {
		if m.seedsDir != "none" {
			cfg.SeedsDir = "/www/fuzz/seeds"
			if err := copyJSONs(m.seedsDir, filepath.Join(dir, "www-client/fuzz/seeds")); err != nil {
				return l, err
			}
		}
		if m.corpusDir != "none" {
			cfg.CorpusDir = "/www/fuzz/corpus"
			if err := copyJSONs(filepath.Join(m.corpusDir, t.Name, c.Name), filepath.Join(dir, "www-client/fuzz/corpus")); err != nil {
				return l, err
			}
		}
	}
	if err := jsonfile.Write(filepath.Join(dir, clientConfig), cfg); err != nil {
		return l, err
	}
	l.Limit = limit
	l.Env = map[string]string{
		"CLIENT_IMAGE": m.client.Image, "SERVER_IMAGE": t.Image, "TESTCASE": testcase, "SERVER_TESTCASE": c.ServerTestcase,
		"SIM_PROFILE": "ideal", "SIM_SEED": strconv.FormatUint(seed, 10), "CERTS_DIR": r.CertsDir,
	}
	l.Peers = []lifecycle.Peer{{Service: "server", Listen: "udp", Port: 443, Judged: true}}
	var sampler *topology.MemorySampler
	l.Started = func(ctx context.Context, c *topology.Cell) error {
		sampler = c.SampleMemory(ctx, "server", 5*time.Second)
		return nil
	}
	// Once the client stopped, the server is idle by rights: the CPU it burns over the window is
	// a spin a fuzzed connection left behind (the CPU oracle). A server busy right away may still
	// be closing or retransmitting to connections the fuzzer left (a slow build: ASan), so a busy
	// first window is measured again once every connection's idle timeout has passed. The memory
	// samples end here.
	bound := m.bounds.IdleCPULimit
	l.Finished = func(ctx context.Context, c *topology.Cell) error {
		res := resources{Measured: true}
		busy, err := idleCPU(ctx, c)
		if err == nil && busy > bound {
			res.BusyAtStop = busy
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(idleGrace):
			}
			busy, err = idleCPU(ctx, c)
		}
		res.IdleCPU, res.Measured = busy, err == nil
		if sampler != nil {
			res.Memory = sampler.Stop()
			sampler = nil
		}
		return jsonfile.Write(filepath.Join(dir, resourcesFile), res)
	}
	return l, nil
}

// idleCPU is the cores the server used over idleWindow (cgroup CPU time).
func idleCPU(ctx context.Context, c *topology.Cell) (float64, error) {
	before, err := c.CPUTime(ctx, "server")
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-time.After(idleWindow):
	}
	after, err := c.CPUTime(ctx, "server")
	if err != nil {
		return 0, err
	}
	return (after - before).Seconds() / time.Since(t0).Seconds(), nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// copyJSONs copies the .json files of from (which may not exist: nothing to copy) into to.
func copyJSONs(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	es, err := os.ReadDir(from)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range es {
		if filepath.Ext(e.Name()) == ".json" && e.Type().IsRegular() {
			if err := copyFile(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}
