package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runUpload runs the program in-process against addr and returns its exit code, stderr and result.
func runUpload(t *testing.T, addr, caFile string, args ...string) (int, string, result) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "result.json")
	full := append([]string{"-addr", addr, "-servername", "localhost", "-ca", caFile, "-out", out,
		"-keylog", filepath.Join(dir, "keys.log")}, args...)
	var stdout, stderr bytes.Buffer
	code := run(full, &stdout, &stderr)
	t.Logf("h2upload %s\n%s%s", strings.Join(args, " "), stdout.String(), stderr.String())
	var res result
	if code == 0 {
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("exit 0 but no result: %v", err)
		}
		if err := json.Unmarshal(data, &res); err != nil {
			t.Fatalf("result.json: %v", err)
		}
		t.Logf("result.json: %s", data)
		if keys, err := os.ReadFile(filepath.Join(dir, "keys.log")); err != nil || !bytes.Contains(keys, []byte("CLIENT_TRAFFIC_SECRET_0")) {
			t.Errorf("keylog has no TLS 1.3 traffic secret (err %v)", err)
		}
	}
	return code, stderr.String(), res
}

// oneRep is the only repetition of a one-repetition run.
func oneRep(t *testing.T, res result) repResult {
	t.Helper()
	if len(res.Reps) != 1 {
		t.Fatalf("%d repetitions recorded, want 1", len(res.Reps))
	}
	return res.Reps[0]
}
