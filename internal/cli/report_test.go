package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wirelab report over a small out/: exit 0 and the index's path; without tshark the pages say
// so. A corrupted results.jsonl is bad input naming the file and the line; so is a --runs run
// that is not there.
func TestReportExitCodes(t *testing.T) {
	fakeRepo(t, nil)
	t.Setenv("WIRELAB_DOCKER", "/nonexistent/docker")
	out := t.TempDir()
	run := filepath.Join(out, "quic", "r1")
	must(t, os.MkdirAll(filepath.Join(run, "quic-go_quic-go", "handshake"), 0o755))
	journal := filepath.Join(run, "results.jsonl")
	line := `{"server":"quic-go","client":"quic-go","case":"handshake","abbr":"H","result":"failed","reason":"handshake: 2 handshakes","rerun":"wirelab quic --seed 1"}` + "\n"
	must(t, os.WriteFile(journal, []byte(line), 0o644))

	code, stdout, stderr := wl("report", "--out", out)
	index := filepath.Join(out, "report", "index.html")
	if code != 0 || !strings.Contains(stdout, "report: "+index) {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report", "cells", "quic", "r1", "quic-go_quic-go__handshake.html")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--runs", "quic/r2"}, {"--runs", "quic"}, {"--diff", "quic/r1"}, {"--traces", "most"}, {"extra"},
		{"--baseline", "nosuch=x.yml"}, {"--baseline", "quic=/nonexistent/expected.yml"}, {"--baseline", "quic=none,quic=none"}} {
		code, _, stderr := wl(append([]string{"report", "--out", out}, args...)...)
		if code != ExitBadInput || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "wirelab report: ") {
			t.Errorf("%v: exit %d, stderr %q: want 2 and one line", args, code, stderr)
		}
	}
	must(t, os.WriteFile(journal, []byte(line+"{\"server\":\n"), 0o644))
	code, _, stderr = wl("report", "--out", out)
	if code != ExitBadInput || !strings.Contains(stderr, journal+":2:") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("corrupted journal: exit %d, stderr %q", code, stderr)
	}
}
