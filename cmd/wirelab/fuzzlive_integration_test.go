package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// make fuzz-live finds a planted bug from scratch and make fuzz-repro replays it: the aioquic
// server with a crash planted behind a two-frame sequence (DATA_BLOCKED, then
// STREAMS_BLOCKED_UNI on the same connection) and one with a hang planted behind a MAX_STREAMS_UNI
// of 2^30 or more (testdata/fuzz-planted-server), each fuzzed for up to 120 s (a finding ends the
// campaign: here 4 s and 21 s; the room is for a loaded machine) with no seeds and no
// corpus. The crash must be found by the crash oracle, the hang by the liveness oracle, each with
// inputs that replay it; replaying the crash must crash the server again.
func TestIntegrationFuzzLivePlanted(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-fuzzlive"), t.TempDir()
	var refs []string
	for _, plant := range []string{"crash", "hang"} {
		tag := "wirelab-it/planted-" + plant + ":" + id
		if b, err := exec.Command("docker", "build", "-q", "-t", tag, "--build-arg", "PLANT="+plant, "testdata/fuzz-planted-server").CombinedOutput(); err != nil {
			t.Fatalf("build: %v %s", err, b)
		}
		defer exec.Command("docker", "rmi", "-f", tag).Run()
		refs = append(refs, "--image", "planted-"+plant+"="+tag+":server")
	}
	args := append([]string{"fuzz-live", "--run-id", id, "--out", out, "--target", "planted-crash,planted-hang", "--campaigns", "h3",
		"--duration", "120s", "--seeds", "none", "--corpus", "none", "--fuzz-seed", "3", "--baseline", "none"}, refs...)
	code, log := wirelab(t, bin, args...)
	t.Log(log)
	assertNothingLeft(t, id)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (findings, no baseline)", code)
	}
	subs := map[string]cellLine{}
	for _, c := range readJournal(t, filepath.Join(out, "fuzz-live", id, "results.jsonl")) {
		subs[c.Server+" "+c.Sub] = c
	}
	for key, want := range map[string]string{
		"planted-crash oracle/crash":   "failed",
		"planted-hang oracle/liveness": "failed",
		"planted-hang oracle/crash":    "succeeded",
	} {
		c, ok := subs[key]
		switch {
		case !ok && want != "":
			t.Errorf("%s: no such sub-case in results.jsonl", key)
		case ok && want != "" && c.Result != want:
			t.Errorf("%s: %s (%s), want %s", key, c.Result, c.Reason, want)
		}
	}
	crash := subs["planted-crash oracle/crash"]
	if !strings.Contains(crash.Reason, "exited 134") {
		t.Errorf("crash oracle: %q does not name the abort (exit 134)", crash.Reason)
	}
	finding := findingDir(t, crash.Reason)
	var inputs []json.RawMessage
	if b, err := os.ReadFile(filepath.Join(finding, "inputs.json")); err != nil || json.Unmarshal(b, &inputs) != nil || len(inputs) == 0 {
		t.Fatalf("%s: no inputs to replay (%v)", finding, err)
	}

	// make fuzz-repro FINDING=...: the server is started again and crashes again
	rid := runID(t, "it-fuzzrepro")
	code, log = wirelab(t, bin, append([]string{"fuzz-live", "--run-id", rid, "--out", out, "--replay", finding, "--baseline", "none"}, refs...)...)
	t.Log(log)
	assertNothingLeft(t, rid)
	if code != 1 || !strings.Contains(log, "reproduced: the server exited 134") {
		t.Errorf("replay: exit %d, want 1 with \"reproduced: the server exited 134\"", code)
	}
}

// findingDir takes the finding folder out of a sub-case's reason ("... make fuzz-repro FINDING=<dir>)").
func findingDir(t *testing.T, reason string) string {
	t.Helper()
	_, after, ok := strings.Cut(reason, "FINDING=")
	if !ok {
		t.Fatalf("no FINDING= in %q", reason)
	}
	return strings.TrimRight(strings.Fields(after)[0], ");")
}
