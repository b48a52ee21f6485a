package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// make baseline writes the run's failed cells with their reasons; bad flags are bad input.
func TestBaselineFromARun(t *testing.T) {
	root := fakeRepo(t, nil)
	out := filepath.Join(root, "out")
	runDir := filepath.Join(out, "h2", "r1")
	must(t, os.MkdirAll(runDir, 0o755))
	must(t, os.WriteFile(filepath.Join(runDir, "results.jsonl"), []byte(
		`{"server":"nginx","client":"h2check","case":"flow","result":"failed","reason":"window not restored"}`+"\n"+
			`{"server":"caddy","client":"h2check","case":"flow","result":"succeeded"}`+"\n"), 0o644))
	for _, args := range [][]string{
		{"baseline", "--suite", "http2", "--run-id", "r1"},
		{"baseline", "--suite", "h2", "--run-id", "../x"},
		{"baseline", "--suite", "h2", "--run-id", "nosuch", "--out", out},
	} {
		if code, _, errOut := wl(args...); code != ExitBadInput || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: code %d %q", args, code, errOut)
		}
	}
	file := filepath.Join(root, "expected.yml")
	if code, stdout, errOut := wl("baseline", "--suite", "h2", "--run-id", "r1", "--out", out, "--file", file); code != 0 {
		t.Fatalf("code %d %q %q", code, stdout, errOut)
	}
	data, _ := os.ReadFile(file)
	if s := string(data); !strings.Contains(s, "server: nginx") || !strings.Contains(s, "reason: window not restored") ||
		strings.Contains(s, "caddy") {
		t.Errorf("baseline:\n%s", s)
	}
}
