package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The WebTransport smoke make test runs: webtransport-go and aioquic both ways on three of
// upstream's cases (one per transport and direction kind), judged from the decrypted trace,
// against the suite's default baseline — exit 0 means no cell regressed, and the known failure
// (webtransport-go's client wants the server to support reliable stream resets) still fails
// with its signature.
func TestIntegrationWebTransportSmoke(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-wt"), t.TempDir()
	code, log := wirelab(t, bin, "webtransport", "--run-id", id, "--out", out, "--seed", "11",
		"--clients", "webtransport-go,aioquic", "--servers", "webtransport-go,aioquic",
		"--tests", "handshake,transfer-unidirectional-receive,transfer-bidirectional-send,transfer-datagram-receive")
	t.Log(log)
	assertNothingLeft(t, id)
	if code != 0 {
		t.Fatalf("exit %d, want 0 (nothing regressed against conformance/webtransport/expected.yml)", code)
	}
	cells := readJournal(t, filepath.Join(out, "webtransport", id, "results.jsonl"))
	if len(cells) != 16 {
		t.Fatalf("%d cells journaled, want 16", len(cells))
	}
	for _, c := range cells {
		want := "succeeded"
		if c.Server == "aioquic" && c.Client == "webtransport-go" {
			want = "failed" // the baseline's entry: reliable stream reset (RESET_STREAM_AT) required
		}
		if c.Result != want {
			t.Errorf("%s <- %s %s: %s (%s), want %s", c.Server, c.Client, c.Case, c.Result, c.Reason, want)
		}
	}
	// The verdicts read the trace: each judged cell keeps every check's line.
	checks, err := os.ReadFile(filepath.Join(out, "webtransport", id, "webtransport-go_aioquic", "transfer-datagram-receive", "checks.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"settings: pass", "extended-connect: pass", "datagrams: pass: 400 DATAGRAMs", "transfer: pass: 200 files"} {
		if !strings.Contains(string(checks), want) {
			t.Errorf("checks.txt lacks %q:\n%s", want, checks)
		}
	}
}

// The browsers as WebTransport clients, in make test too: Chromium and Firefox ESR headless
// against webtransport-go, one stream case and one datagram case each, judged from the trace
// their key logs decrypt; and both as HTTP/3 clients in the QUIC suite, Firefox sending nothing
// outside the lab.
func TestIntegrationWebTransportBrowsers(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-wt-browsers"), t.TempDir()
	code, log := wirelab(t, bin, "webtransport", "--run-id", id, "--out", out, "--seed", "13", "-j", "2",
		"--clients", "chromium,firefox", "--servers", "webtransport-go", "--tests", "handshake,transfer-bidirectional-receive,transfer-datagram-receive")
	t.Log(log)
	assertNothingLeft(t, id)
	if code != 0 {
		t.Fatalf("webtransport: exit %d, want 0", code)
	}
	want := map[string]string{"chromium/handshake": "succeeded", "firefox/handshake": "unsupported"}
	for _, c := range readJournal(t, filepath.Join(out, "webtransport", id, "results.jsonl")) {
		w, ok := want[c.Client+"/"+c.Case]
		if !ok {
			w = "succeeded"
		}
		if c.Result != w {
			t.Errorf("%s <- %s %s: %s (%s), want %s", c.Server, c.Client, c.Case, c.Result, c.Reason, w)
		}
	}
	for _, f := range []string{"webtransport-go_chromium/transfer-bidirectional-receive/client/netlog.json", "webtransport-go_firefox/transfer-bidirectional-receive/client/keys.log"} {
		if st, err := os.Stat(filepath.Join(out, "webtransport", id, f)); err != nil || st.Size() == 0 {
			t.Errorf("the browser's own log %s: %v", f, err)
		}
	}
	qid := runID(t, "it-quic-browsers")
	code, log = wirelab(t, bin, "quic", "--run-id", qid, "--out", out, "--seed", "13", "-j", "2",
		"--clients", "chromium,firefox", "--servers", "nginx,quic-go", "--tests", "handshake,http3")
	t.Log(log)
	assertNothingLeft(t, qid)
	if code != 0 {
		t.Fatalf("quic: exit %d, want 0", code)
	}
	for _, client := range []string{"chromium", "firefox"} {
		results := map[string]string{}
		for _, c := range readJournal(t, filepath.Join(out, "quic", qid, "results.jsonl")) {
			if c.Client == client {
				results[c.Server+"/"+c.Case] = c.Result
			}
		}
		// quic-go's server speaks hq-interop but in http3: a browser's h3 meets it there only.
		if fmt.Sprint(results) != "map[nginx/handshake:succeeded nginx/http3:succeeded quic-go/handshake:unsupported quic-go/http3:succeeded]" {
			t.Errorf("%s in the QUIC suite: %v", client, results)
		}
	}
	assertFirefoxStaysInLab(t, filepath.Join(out, "quic", qid, "nginx_firefox", "http3", "client"))
}

// A misbehaving server of the lab's own (aioquic's WebTransport server breaking one rule on
// purpose) fails the case that rule belongs to, for that rule, read from the trace.
func TestIntegrationWebTransportMisbehavingServer(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-wt-liar"), t.TempDir()
	cases := map[string]struct{ testcase, reason string }{
		"wrong-protocol":           {"handshake", "protocol: the server chose"},
		"datagram-without-session": {"transfer-datagram-receive", "datagrams: server->client DATAGRAM"},
		"untyped-stream":           {"transfer-unidirectional-receive", "session-streams: server->client uni stream"},
	}
	args := []string{"webtransport", "--run-id", id, "--out", out, "--seed", "5", "--clients", "aioquic", "-j", "3",
		"--tests", "handshake,transfer-datagram-receive,transfer-unidirectional-receive", "--baseline", "none"}
	var servers []string
	for misbehave := range cases {
		tag := "wirelab-it/wt-" + misbehave + ":" + id
		if b, err := exec.Command("docker", "build", "-q", "--build-arg", "MISBEHAVE="+misbehave, "-t", tag, "testdata/wt-misbehaving-endpoint").CombinedOutput(); err != nil {
			t.Fatalf("build: %v %s", err, b)
		}
		defer exec.Command("docker", "rmi", "-f", tag).Run()
		args = append(args, "--image", misbehave+"="+tag+":server")
		servers = append(servers, misbehave)
	}
	args = append(args, "--servers", strings.Join(servers, ","))
	code, log := wirelab(t, bin, args...)
	t.Log(log)
	assertNothingLeft(t, id)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, c := range readJournal(t, filepath.Join(out, "webtransport", id, "results.jsonl")) {
		want := cases[c.Server]
		if c.Case != want.testcase {
			continue
		}
		if c.Result != "failed" || !strings.Contains(c.Reason, want.reason) {
			t.Errorf("%s %s: %s (%s), want failed for %q", c.Server, c.Case, c.Result, c.Reason, want.reason)
		}
	}
}

// An endpoint image written for the upstream WebTransport runner, its FROM line changed, runs in
// the suite in both roles (no manifest: every case is tried, 127 is unsupported).
func TestIntegrationWebTransportUpstreamEndpoint(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-wt-upstream"), t.TempDir()
	tag := "wirelab-it/upstream-wt:" + id
	if b, err := exec.Command("docker", "build", "-q", "-t", tag, "testdata/upstream-wt-endpoint").CombinedOutput(); err != nil {
		t.Fatalf("build: %v %s", err, b)
	}
	defer exec.Command("docker", "rmi", "-f", tag).Run()
	code, log := wirelab(t, bin, "webtransport", "--run-id", id, "--out", out, "--seed", "9", "--image", "upstream="+tag,
		"--clients", "upstream,aioquic", "--servers", "upstream,webtransport-go", "--tests", "handshake,transfer-bidirectional-receive",
		"--baseline", "none")
	t.Log(log)
	assertNothingLeft(t, id)
	if code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	seen := 0
	for _, c := range readJournal(t, filepath.Join(out, "webtransport", id, "results.jsonl")) {
		if c.Server != "upstream" && c.Client != "upstream" {
			continue
		}
		seen++
		if c.Result != "succeeded" {
			t.Errorf("%s <- %s %s: %s (%s)", c.Server, c.Client, c.Case, c.Result, c.Reason)
		}
	}
	if seen != 6 {
		t.Errorf("%d cells with the upstream image, want 6", seen)
	}
}
