package livefuzz

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
)

// testdata/asan/asan.472 is the report gcc 14's ASan wrote (log_path) for planted.c beside it,
// compiled with -fsanitize=address in wirelab/base and run once.
const asanFixture = "testdata/asan/asan.472"

// The report is named by the error, the access and the first frame of the target's own code
// (not the memcpy interceptor of the sanitizer runtime that noticed it).
func TestParseASanReport(t *testing.T) {
	r, err := parseASan(asanFixture)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Signature(), "ASan heap-buffer-overflow (WRITE) in parse_frame planted.c:6"; got != want {
		t.Errorf("signature %q, want %q", got, want)
	}
	if !strings.Contains(r.Line(), "WRITE of size 16") {
		t.Errorf("line %q has no access size", r.Line())
	}
	// a file of another kind is an error naming it, not a quiet pass
	other := filepath.Join(t.TempDir(), "asan.9")
	if err := os.WriteFile(other, []byte("ngtcp2 server: TESTCASE=http3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parseASan(other); err == nil || !strings.Contains(err.Error(), other) {
		t.Errorf("a file without a report: %v", err)
	}
}

// putASan puts the fixture report where a cell keeps the server's /logs.
func putASan(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(asanFixture)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "server"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "server", "asan.472"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// An ASan report fails the crash oracle and names its finding, which keeps the report; so it
// does when the exit alone says little (ASan's exit code 1), and when the server still ran.
func TestVerdictASanReport(t *testing.T) {
	m := testMatrix(t)
	for name, exits := range map[string][]lifecycle.PeerExit{
		"exited":     {{Service: "server", Code: 1, Words: "ngtcp2 server: TESTCASE=http3, gtlsserver serving /www on UDP 443"}},
		"kept going": nil,
	} {
		t.Run(name, func(t *testing.T) {
			dir := campaignDir(t, stats{Inputs: 10}, nil, nil)
			putASan(t, dir)
			r := m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir, ClientExit: -1, PeerExits: exits})
			s := subsOf(r)[subCrash]
			if r.Result != matrix.Failed || s.Result != matrix.Failed || !strings.Contains(s.Reason, "ASan heap-buffer-overflow (WRITE of size 16) in parse_frame") {
				t.Fatalf("%s: crash sub %s (%s)", r.Result, s.Result, s.Reason)
			}
			f, err := ReadFinding(findingDir(s.Reason))
			if err != nil {
				t.Fatal(err)
			}
			if f.Signature != "ASan heap-buffer-overflow (WRITE) in parse_frame planted.c:6" {
				t.Errorf("signature %q", f.Signature)
			}
			if b, err := os.ReadFile(filepath.Join(f.Dir, "asan.txt")); err != nil || !strings.Contains(string(b), "ERROR: AddressSanitizer") {
				t.Errorf("the finding does not keep the report: %v", err)
			}
		})
	}
	// a replay that meets the same report reproduces the finding
	dir := campaignDir(t, stats{}, nil, nil)
	putASan(t, dir)
	m.replay = &Finding{Oracle: "crash", Target: "ngtcp2-asan", Signature: "ASan heap-buffer-overflow (WRITE) in parse_frame planted.c:6"}
	if r := m.Verdict(context.Background(), nil, cell, lifecycle.Evidence{Dir: dir, PeerExits: []lifecycle.PeerExit{{Service: "server", Code: 1}}}); r.Result != matrix.Failed || !strings.HasPrefix(r.Reason, "reproduced: ASan heap-buffer-overflow") {
		t.Errorf("replay: %s (%s)", r.Result, r.Reason)
	}
}
