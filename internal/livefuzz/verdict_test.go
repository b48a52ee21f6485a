package livefuzz

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/topology"
)

// a campaign's folder as the client and the lifecycle hooks leave it
func campaignDir(t *testing.T, st stats, res *resources, fs map[string]Finding) string {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, fuzzOut)
	for _, d := range []string{"recent", "findings"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(jsonfile.Write(filepath.Join(out, "stats.json"), st))
	for i := 0; i < 3; i++ {
		must(jsonfile.Write(filepath.Join(out, "recent", string(rune('a'+i))+".json"), map[string]any{"seq": 10 - i, "input": map[string]any{"n": 10 - i}}))
	}
	for name, f := range fs {
		d := filepath.Join(out, "findings", name)
		must(os.MkdirAll(d, 0o755))
		must(jsonfile.Write(filepath.Join(d, "finding.json"), f))
		must(jsonfile.Write(filepath.Join(d, "inputs.json"), []map[string]any{{"alpn": "h3"}}))
	}
	if res != nil {
		must(jsonfile.Write(filepath.Join(dir, resourcesFile), res))
	}
	return dir
}

func testMatrix(t *testing.T) *Matrix {
	cf, err := LoadCampaigns("../../conformance/fuzz-live/campaigns.yml")
	if err != nil {
		t.Fatal(err)
	}
	m := &Matrix{bounds: cf, byCampaign: map[string]*Campaign{}}
	for _, c := range cf.Campaigns {
		m.byCampaign[c.Name] = c
	}
	return m
}

func subsOf(r matrix.Result) map[string]matrix.Result {
	out := map[string]matrix.Result{}
	for _, s := range r.Subs {
		out[s.Sub] = s
	}
	return out
}

var cell = matrix.Cell{Server: "nginx", Client: "quicfuzz", Case: "h3"}

// A quiet campaign passes every oracle it ran; each rule tried is a sub-case of its own.
func TestVerdictQuietCampaign(t *testing.T) {
	quiet := &resources{Measured: true, IdleCPU: 0.01, Memory: topology.MemorySamples{First: 10 << 20, Peak: 40 << 20, Samples: 9}}
	dir := campaignDir(t, stats{Inputs: 900, InputsPerSec: 30, LivenessChecks: 36, Rules: map[string]ruleRun{"client-new-token": {Tried: 4, Held: 4}}}, quiet, nil)
	r := testMatrix(t).Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir})
	subs := subsOf(r)
	if r.Result != matrix.Succeeded || len(subs) != 5 {
		t.Fatalf("%s (%s), subs %v", r.Result, r.Reason, subs)
	}
	for _, n := range []string{subCrash, subLiveness, subMemory, subCPU, "rfc/client-new-token"} {
		if subs[n].Result != matrix.Succeeded {
			t.Errorf("%s: %s (%s)", n, subs[n].Result, subs[n].Reason)
		}
	}
}

// Each oracle fails on its own evidence: the server's death (a finding made from the recent
// inputs, oldest first), the client's liveness finding, memory and idle CPU past their bounds,
// a rule broken.
func TestVerdictFindings(t *testing.T) {
	m := testMatrix(t)
	t.Run("crash", func(t *testing.T) {
		dir := campaignDir(t, stats{Inputs: 10}, nil, nil)
		r := m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir, ClientExit: -1,
			PeerExits: []lifecycle.PeerExit{{Service: "server", Code: 139, Words: "Segmentation fault (core dumped) at 0x7f00deadbeef"}}})
		s := subsOf(r)[subCrash]
		if r.Result != matrix.Failed || !r.BySubs || s.Result != matrix.Failed || !strings.Contains(s.Reason, "exited 139") || !strings.Contains(s.Reason, "FINDING=") {
			t.Fatalf("%s %v: crash sub %s (%s)", r.Result, r.BySubs, s.Result, s.Reason)
		}
		f, err := ReadFinding(findingDir(s.Reason))
		if err != nil {
			t.Fatal(err)
		}
		var inputs []map[string]int
		if err := jsonfile.Read(filepath.Join(f.Dir, "inputs.json"), &inputs); err != nil || len(inputs) != 3 || inputs[0]["n"] != 8 || inputs[2]["n"] != 10 {
			t.Errorf("the crash's inputs: %v (%v), want the recent ones oldest first (8, 9, 10)", inputs, err)
		}
		if f.Signature != "exit 139: Segmentation fault (core dumped) at X" {
			t.Errorf("signature %q", f.Signature)
		}
	})
	t.Run("liveness", func(t *testing.T) {
		dir := campaignDir(t, stats{Inputs: 10}, &resources{Measured: true, Memory: topology.MemorySamples{Samples: 2}},
			map[string]Finding{"liveness-1": {Oracle: "liveness", Target: "nginx", ALPN: "h3", Observed: "no handshake within 5 s"}})
		s := subsOf(m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir}))[subLiveness]
		if s.Result != matrix.Failed || !strings.Contains(s.Reason, "no handshake") {
			t.Errorf("liveness: %s (%s)", s.Result, s.Reason)
		}
	})
	t.Run("resources", func(t *testing.T) {
		hot := &resources{Measured: true, IdleCPU: 0.97, Memory: topology.MemorySamples{First: 10 << 20, Peak: 900 << 20, Samples: 5}}
		subs := subsOf(m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: campaignDir(t, stats{}, hot, nil)}))
		if subs[subMemory].Result != matrix.Failed || subs[subCPU].Result != matrix.Failed {
			t.Errorf("memory %s (%s), cpu %s (%s)", subs[subMemory].Result, subs[subMemory].Reason, subs[subCPU].Result, subs[subCPU].Reason)
		}
		// busy right after the fuzzer stopped but idle once the connections timed out: no spin
		settled := &resources{Measured: true, BusyAtStop: 0.99, IdleCPU: 0.02, Memory: topology.MemorySamples{Samples: 2}}
		if s := subsOf(m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: campaignDir(t, stats{}, settled, nil)}))[subCPU]; s.Result != matrix.Succeeded || !strings.Contains(s.Reason, "0.99 right after") {
			t.Errorf("settled cpu: %s (%s)", s.Result, s.Reason)
		}
		spinning := &resources{Measured: true, BusyAtStop: 0.99, IdleCPU: 0.97, Memory: topology.MemorySamples{Samples: 2}}
		if s := subsOf(m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: campaignDir(t, stats{}, spinning, nil)}))[subCPU]; s.Result != matrix.Failed || !strings.Contains(s.Reason, "after the fuzzed connections' idle timeout") {
			t.Errorf("spinning cpu: %s (%s)", s.Result, s.Reason)
		}
		// and a campaign whose server could not be measured is no pass
		none := subsOf(m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: campaignDir(t, stats{}, nil, nil)}))
		if none[subMemory].Result != matrix.Failed || !strings.Contains(none[subMemory].Reason, "not measured") {
			t.Errorf("unmeasured memory: %s (%s)", none[subMemory].Result, none[subMemory].Reason)
		}
	})
	t.Run("rule", func(t *testing.T) {
		dir := campaignDir(t, stats{Rules: map[string]ruleRun{"client-new-token": {Tried: 5, Held: 2, Broken: 3, Answers: map[string]int{"alive": 1, "dropped": 2}}}},
			&resources{Measured: true, Memory: topology.MemorySamples{Samples: 2}},
			map[string]Finding{"rfc-1": {Oracle: "rfc", Rule: "client-new-token", Target: "nginx", ALPN: "h3", Frame: "NEW_TOKEN in a 1rtt packet",
				Expected: "CONNECTION_CLOSE with PROTOCOL_VIOLATION (0xa)", Observed: "alive", Section: "RFC 9000 §19.7"}})
		s := subsOf(m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir}))["rfc/client-new-token"]
		if s.Result != matrix.Failed || !strings.HasPrefix(s.Reason, "want CONNECTION_CLOSE with PROTOCOL_VIOLATION (0xa), answered dropped, alive: broken in 3 of 5") || !strings.Contains(s.Reason, "got alive") {
			t.Errorf("rule: %s (%s)", s.Result, s.Reason)
		}
	})
	t.Run("no stats", func(t *testing.T) {
		r := m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: t.TempDir(), ClientExit: 1, ClientWords: "fuzz: the server does not complete a handshake"})
		if r.Result != matrix.Failed || !strings.Contains(r.Reason, "does not complete a handshake") {
			t.Errorf("%s (%s)", r.Result, r.Reason)
		}
	})
}

func findingDir(reason string) string {
	_, after, _ := strings.Cut(reason, "FINDING=")
	return strings.TrimRight(strings.Fields(after)[0], ");")
}

// make fuzz-repro fails when the finding reproduces and passes when it does not.
func TestReplayVerdict(t *testing.T) {
	m := testMatrix(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, fuzzOut), 0o755); err != nil {
		t.Fatal(err)
	}
	m.replay = &Finding{Oracle: "crash", Target: "nginx"}
	r := m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir, PeerExits: []lifecycle.PeerExit{{Service: "server", Code: 134, Words: "Aborted"}}})
	if r.Result != matrix.Failed || !strings.HasPrefix(r.Reason, "reproduced: the server exited 134") {
		t.Errorf("crash again: %s (%s)", r.Result, r.Reason)
	}
	_ = jsonfile.Write(filepath.Join(dir, fuzzOut, "replay.json"), map[string]any{"inputs": []any{map[string]any{"signature": "alive"}}, "liveness": ""})
	if r := m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir}); r.Result != matrix.Succeeded || !strings.HasPrefix(r.Reason, "did not reproduce") {
		t.Errorf("no crash: %s (%s)", r.Result, r.Reason)
	}
	m.replay = &Finding{Oracle: "cpu", Target: "ngtcp2"}
	_ = jsonfile.Write(filepath.Join(dir, resourcesFile), resources{Measured: true, IdleCPU: 0.98})
	if r := m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir}); r.Result != matrix.Failed || !strings.HasPrefix(r.Reason, "reproduced: 0.98 cores") {
		t.Errorf("spin again: %s (%s)", r.Result, r.Reason)
	}
	_ = jsonfile.Write(filepath.Join(dir, resourcesFile), resources{Measured: true, IdleCPU: 0.01})
	if r := m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir}); r.Result != matrix.Succeeded {
		t.Errorf("idle: %s (%s)", r.Result, r.Reason)
	}
	m.replay = &Finding{Oracle: "liveness", Target: "nginx"}
	_ = jsonfile.Write(filepath.Join(dir, fuzzOut, "replay.json"), map[string]any{"inputs": []any{map[string]any{"signature": "silent"}}, "liveness": "no handshake within 5 s"})
	if r := m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir}); r.Result != matrix.Failed || !strings.Contains(r.Reason, "no handshake") {
		t.Errorf("hang again: %s (%s)", r.Result, r.Reason)
	}
}

// A transport CONNECTION_CLOSE naming no frame type fails rfc/close-frame-type; closes that
// all named one pass it.
func TestVerdictCloseFrameType(t *testing.T) {
	m := testMatrix(t)
	ok := &resources{Measured: true, Memory: topology.MemorySamples{Samples: 2}}
	for _, tc := range []struct {
		bogus int
		want  string
	}{{0, matrix.Succeeded}, {3, matrix.Failed}} {
		st := stats{}
		st.CloseFrameType = &struct {
			Checked int `json:"checked"`
			Bogus   int `json:"bogus"`
		}{Checked: 40, Bogus: tc.bogus}
		s := subsOf(m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: campaignDir(t, st, ok, nil)}))[subCloseFrameType]
		if s.Result != tc.want {
			t.Errorf("%d bogus of 40: %s (%s), want %s", tc.bogus, s.Result, s.Reason, tc.want)
		}
	}
}
