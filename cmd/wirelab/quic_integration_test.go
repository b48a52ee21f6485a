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
	Server, Client, Case, Result, Reason, Sub string
	Axes                                      map[string]string
	Seconds                                   float64
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

// runMatrix runs `wirelab quic -j 2` with args under a fresh run id and output folder, checks
// that it left nothing behind, and returns its exit code, run folder and results.jsonl.
func runMatrix(t *testing.T, prefix string, args ...string) (int, string, []cellLine) {
	t.Helper()
	bin := integration(t)
	id, out := runID(t, prefix), t.TempDir()
	code, log := wirelab(t, bin, append([]string{"quic", "--run-id", id, "--out", out, "-j", "2"}, args...)...)
	t.Log(log)
	assertNothingLeft(t, id)
	dir := filepath.Join(out, "quic", id)
	return code, dir, readJournal(t, filepath.Join(dir, "results.jsonl"))
}

// The smoke matrix CI runs: quic-go and ngtcp2 both ways on a handful of cases; then the same
// matrix in 3 shards, merged, must equal it.
func TestIntegrationQuicSmokeMatrix(t *testing.T) {
	args := []string{"--seed", "7", "--clients", "quic-go,ngtcp2", "--servers", "quic-go,ngtcp2", "--tests", "handshake,transfer,retry,http3"}
	code, dir, cells := runMatrix(t, "it-quic", args...)
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
		// Every pair passes these: ngtcp2's image speaks hq-interop (its h09 programs) like
		// quic-go's for all but http3.
		if c.Result != "succeeded" {
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
	checkShardsMergeToWhole(t, dir, args)
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

// Measurements: goodput numbers per repetition from the trace, cross traffic that really runs,
// upstream's measurements list in result.json; and a crosstraffic run whose TCP flow cannot
// start (an algorithm the kernel does not have) fails instead of reporting a plain goodput.
func TestIntegrationQuicMeasurements(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-measure"), t.TempDir()
	code, log := wirelab(t, bin, "quic", "--run-id", id, "--out", out, "--seed", "3", "-j", "2",
		"--cases-file", "cmd/wirelab/testdata/measurement-cases.yml", "--clients", "quic-go", "--servers", "quic-go")
	t.Log(log)
	assertNothingLeft(t, id)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	type measured struct {
		Case, Result, Details string
		Values                []float64
		Cross                 []float64 `json:"cross_traffic_kbps"`
	}
	var cells []measured
	data, _ := os.ReadFile(filepath.Join(out, "quic", id, "results.jsonl"))
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c measured
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatal(err)
		}
		cells = append(cells, c)
	}
	if len(cells) != 2 {
		t.Fatalf("%d cells", len(cells))
	}
	for _, c := range cells {
		// The link is 10 Mbit/s: a goodput above it, or near zero, is a measuring error.
		if len(c.Values) != 2 || c.Values[0] < 1000 || c.Values[0] > 10500 || c.Values[1] < 1000 || c.Values[1] > 10500 {
			t.Errorf("%s: values %v", c.Case, c.Values)
		}
		if c.Case == "crosstraffic" && (len(c.Cross) != 2 || c.Cross[0] <= 0 || !strings.Contains(c.Details, "competing TCP flow")) {
			t.Errorf("crosstraffic: cross %v details %q", c.Cross, c.Details)
		}
	}
	res := readResult(t, filepath.Join(out, "quic", id, "result.json"))
	if ms := res["measurements"].([]any)[0].([]any); len(ms) != 2 {
		t.Errorf("result.json measurements: %v", ms)
	}

	id2 := runID(t, "it-nocross")
	cmd := exec.Command(bin, "quic", "--run-id", id2, "--out", out, "--seed", "3", "--cases-file", "cmd/wirelab/testdata/measurement-cases.yml",
		"--clients", "quic-go", "--servers", "quic-go", "--tests", "crosstraffic")
	cmd.Dir, cmd.Env = "../..", append(os.Environ(), "WIRELAB_CROSS_CC=no-such-algorithm")
	b, _ := cmd.CombinedOutput()
	assertNothingLeft(t, id2)
	if c := readJournal(t, filepath.Join(out, "quic", id2, "results.jsonl")); len(c) != 1 || c[0].Result != "failed" || !strings.Contains(c[0].Reason, "cross traffic") {
		t.Fatalf("without cross traffic: %+v\n%s", c, b)
	}
}

// Every other image in at least one cross-stack pair: three clients (curl: h3 over OpenSSL QUIC;
// aioquic and go-x-net: hq-interop) against three servers (nginx and haproxy offer both ALPNs,
// aioquic's adapter too) must complete a handshake with the files and trace checks.
func TestIntegrationQuicCrossStack(t *testing.T) {
	code, _, cells := runMatrix(t, "it-cross", "--seed", "9",
		"--clients", "curl,aioquic,go-x-net", "--servers", "nginx,haproxy,aioquic", "--tests", "handshake")
	if len(cells) != 9 {
		t.Fatalf("%d cells, want 9", len(cells))
	}
	for _, c := range cells {
		if c.Result != "succeeded" {
			t.Errorf("%s_%s %s: %s (%s)", c.Server, c.Client, c.Case, c.Result, c.Reason)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
}

// A QUIC server that crashes once it has served every file fails its cell, in the QUIC suite as
// in every other (the lifecycle watches every peer): the client's downloads are whole, the
// server's exit is the finding.
func TestIntegrationQuicCrashingServerFails(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-crash"), t.TempDir()
	tag := "wirelab-it/crash:" + id
	if b, err := exec.Command("docker", "build", "-q", "-t", tag, "testdata/crash-server-endpoint").CombinedOutput(); err != nil {
		t.Fatalf("build: %v %s", err, b)
	}
	defer exec.Command("docker", "rmi", "-f", tag).Run()
	code, log := wirelab(t, bin, "quic", "--run-id", id, "--out", out, "--seed", "7", "--image", "crash="+tag+":server",
		"--clients", "quic-go", "--servers", "crash", "--tests", "handshake", "--baseline", "none")
	t.Log(log)
	assertNothingLeft(t, id)
	cells := readJournal(t, filepath.Join(out, "quic", id, "results.jsonl"))
	if code != 1 || len(cells) != 1 {
		t.Fatalf("exit %d, %d cells; want 1 and one failed cell", code, len(cells))
	}
	c := cells[0]
	if c.Result != "failed" || !strings.Contains(c.Reason, "the server exited 3 during the cell") || !strings.Contains(c.Reason, "crashing") {
		t.Errorf("the crashed server's cell: %s %q", c.Result, c.Reason)
	}
	downloads, _ := os.ReadDir(filepath.Join(out, "quic", id, "crash_quic-go", "handshake", "downloads"))
	if len(downloads) == 0 {
		t.Errorf("the client downloaded nothing: the server must crash after serving every file")
	}
}
