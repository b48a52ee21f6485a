package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type cellLine struct {
	Server, Client, Case, Result, Reason string
}

func readJournal(t *testing.T, path string) []cellLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []cellLine
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c cellLine
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("results.jsonl: %v", err)
		}
		out = append(out, c)
	}
	return out
}

// The smoke matrix CI runs: quic-go and ngtcp2 both ways on a handful of cases.
func TestIntegrationQuicSmokeMatrix(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-quic"), t.TempDir()
	code, log := wirelab(t, bin, "quic", "--run-id", id, "--out", out, "--seed", "7", "-j", "2",
		"--clients", "quic-go,ngtcp2", "--servers", "quic-go,ngtcp2", "--tests", "handshake,transfer,retry,http3")
	t.Log(log)
	assertNothingLeft(t, id)
	dir := filepath.Join(out, "quic", id)
	cells := readJournal(t, filepath.Join(dir, "results.jsonl"))
	if len(cells) != 16 {
		t.Fatalf("%d cells in results.jsonl, want 16", len(cells))
	}
	failedCells := 0
	for _, c := range cells {
		if c.Result == "failed" {
			failedCells++
			if c.Reason == "" || strings.Contains(c.Reason, "\n") {
				t.Errorf("%s_%s %s: a failure needs a one-line reason, got %q", c.Server, c.Client, c.Case, c.Reason)
			}
		}
		// Each stack against itself passes; across stacks http3 does (Debian's ngtcp2 examples
		// speak only h3, quic-go's interop programs hq-interop for the other cases: see README).
		if (c.Server == c.Client || c.Case == "http3") && c.Result != "succeeded" {
			t.Errorf("%s_%s %s: %s (%s)", c.Server, c.Client, c.Case, c.Result, c.Reason)
		}
	}
	if (failedCells > 0) != (code == 1) {
		t.Errorf("exit %d with %d failed cells", code, failedCells)
	}
	for _, f := range []string{"result.json", "junit.xml", "certs/ca.pem", "quic-go_ngtcp2/handshake/sim/trace_node_right.pcap", "quic-go_ngtcp2/handshake/output.txt", "quic-go_ngtcp2/handshake/rerun.sh"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
}

// A client that claims success without delivering the files must fail its cell.
func TestIntegrationQuicMisbehavingClientFails(t *testing.T) {
	bin := integration(t)
	// A relative --out, as `make interop` passes: run folders are bind-mounted, so they must
	// reach compose as absolute paths.
	id := runID(t, "it-liar")
	out := filepath.Join("out", "it", id)
	defer os.RemoveAll(filepath.Join("../..", out))
	tag := "wirelab-it/liar:" + id
	if b, err := exec.Command("docker", "build", "-q", "-t", tag, "testdata/liar-endpoint").CombinedOutput(); err != nil {
		t.Fatalf("build: %v %s", err, b)
	}
	defer exec.Command("docker", "rmi", "-f", tag).Run()
	code, log := wirelab(t, bin, "quic", "--run-id", id, "--out", out, "--seed", "7", "--image", "liar="+tag+":client",
		"--clients", "liar", "--servers", "quic-go", "--tests", "handshake,transfer")
	t.Log(log)
	assertNothingLeft(t, id)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	got := map[string]cellLine{}
	for _, c := range readJournal(t, filepath.Join("../..", out, "quic", id, "results.jsonl")) {
		got[c.Case] = c
	}
	if h := got["handshake"]; h.Result != "failed" || !strings.Contains(h.Reason, "files:") {
		t.Errorf("handshake: %+v, want failed on files", h)
	}
	if tr := got["transfer"]; tr.Result != "unsupported" {
		t.Errorf("transfer: %+v, want unsupported (the liar answers 127)", tr)
	}
}
