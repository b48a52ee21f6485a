package livefuzz

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/suite"
)

// A campaign's cell gets the served file, the client's configuration (the rules with their
// codes, the seeds, the target's corpus) and a server whose death is the verdict's evidence.
func TestLayout(t *testing.T) {
	m := testMatrix(t)
	rules, err := LoadRules("../../conformance/fuzz-live/rules.yml")
	if err != nil {
		t.Fatal(err)
	}
	corpus := t.TempDir()
	if err := os.MkdirAll(filepath.Join(corpus, "nginx", "h3"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(corpus, "nginx", "h3", "a.json"), []byte(`{"alpn":"h3","packets":[]}`), 0o644)
	m.rules, m.duration, m.seedsDir, m.corpusDir = rules, 90*time.Second, "../../conformance/fuzz-live/seeds", corpus
	m.impls = map[string]quicinterop.Impl{"nginx": {Name: "nginx", Image: "wirelab/nginx:latest", Testcases: map[string]bool{"h3": true}}}
	m.client = quicinterop.Impl{Name: "quicfuzz", Image: "wirelab/quicfuzz:latest"}
	dir := t.TempDir()
	l, err := m.Layout(context.Background(), &suite.Run{CertsDir: "/certs"}, cell, 5, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Peers) != 1 || !l.Peers[0].Judged || l.Env["SERVER_TESTCASE"] != "http3" || l.Env["TESTCASE"] != "fuzz" || l.Env["SIM_PROFILE"] != "ideal" {
		t.Errorf("layout %+v env %v", l.Peers, l.Env)
	}
	if l.Limit < m.duration {
		t.Errorf("limit %s shorter than the campaign", l.Limit)
	}
	var cfg config
	if err := jsonfile.Read(filepath.Join(dir, clientConfig), &cfg); err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(dir, "www", livenessFile))
	sum := sha256.Sum256(body)
	if err != nil || len(body) != m.bounds.LivenessFileBytes || cfg.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("liveness file: %d bytes (%v), config's sha256 %s", len(body), err, cfg.SHA256)
	}
	if cfg.ALPN != "h3" || cfg.DurationS != 90 || cfg.Seed != 5 || len(cfg.Rules) != len(rules) || cfg.SeedsDir == "" || cfg.CorpusDir == "" {
		t.Errorf("config %+v", cfg)
	}
	seeds, _ := os.ReadDir(filepath.Join(dir, "www-client/fuzz/seeds"))
	kept, _ := os.ReadDir(filepath.Join(dir, "www-client/fuzz/corpus"))
	if len(seeds) < 50 || len(kept) != 1 {
		t.Errorf("%d seeds, %d corpus inputs copied", len(seeds), len(kept))
	}
	// a replay takes the finding's inputs and nothing else
	fdir := t.TempDir()
	_ = jsonfile.Write(filepath.Join(fdir, "inputs.json"), []map[string]any{{"alpn": "h3"}})
	m.replay = &Finding{Dir: fdir, Oracle: "crash", Target: "nginx", Campaign: "h3"}
	dir2 := t.TempDir()
	l, err = m.Layout(context.Background(), &suite.Run{}, cell, 5, dir2)
	if err != nil || l.Env["TESTCASE"] != "replay" {
		t.Fatalf("replay layout: %v %v", err, l.Env)
	}
	if _, err := os.Stat(filepath.Join(dir2, "www-client/fuzz/replay.json")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir2, "www-client/fuzz/seeds")); err == nil {
		t.Error("a replay got the seeds too")
	}
}

// The CPU oracle waits out the fuzzing client's idle timeout: the client must ask for that one.
func TestFuzzIdleTimeoutIsTheClients(t *testing.T) {
	src, err := os.ReadFile("../../images/quicfuzz/livefuzz/session.py")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("idle_timeout=%.1f", fuzzIdleTimeout.Seconds())
	if !strings.Contains(string(src), want) {
		t.Errorf("images/quicfuzz/livefuzz/session.py does not configure %s (fuzzIdleTimeout)", want)
	}
}
