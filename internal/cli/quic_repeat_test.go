package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --repeat outside 1..1000 is one line naming the flag, exit 2, before anything starts; a
// valid one gets as far as the engine (no engine here: exit 3).
func TestQuicBadRepeatExits2(t *testing.T) {
	root := fakeRepo(t, map[string]string{"alpha": "name: alpha\nimplementation: {name: a, version: '1'}\nroles: {quic: [client, server]}\n"})
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	must(t, os.MkdirAll(filepath.Join(root, "conformance", "quic"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "images", "sim"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "images", "sim", "profiles.yml"), []byte("profiles:\n  simple-p2p: {both: {delay: 15ms}}\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "conformance", "quic", "testcases.yml"),
		[]byte("cases:\n  - {name: handshake, abbr: H, testcase: handshake, files: [1KiB], checks: [files]}\n"), 0o644))
	for _, v := range []string{"0", "-1", "1001", "x", "2.5"} {
		code, _, errOut := wl("quic", "--repeat", v)
		if code != ExitBadInput || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "repeat") {
			t.Errorf("--repeat %s: code %d %q", v, code, errOut)
		}
	}
	for _, v := range []string{"1", "3", "1000"} {
		if code, _, errOut := wl("quic", "--repeat", v); code != ExitEnvironment {
			t.Errorf("--repeat %s should reach the engine check: code %d %q", v, code, errOut)
		}
	}
	if code, out, _ := wl("quic", "-h"); code != 0 || !strings.Contains(out, "-repeat N") || !strings.Contains(out, "cases with a repetition policy of their own (measurements) keep it") {
		t.Errorf("help: code %d %q", code, out)
	}
}
