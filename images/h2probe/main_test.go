package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/conformance/h2/h2test"
	"golang.org/x/net/http2"
)

func TestBadFlags(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.pem")
	os.WriteFile(notPEM, []byte("no certificate"), 0o644)
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{}, "-addr"},
		{[]string{"-addr", "server4"}, "-addr"},
		{[]string{"-addr", "server4:0"}, "-addr"},
		{[]string{"-addr", "server4:443", "-probes", "rapid-reset,slowloris"}, "-probes"},
		{[]string{"-addr", "server4:443", "-latency-factor", "0.5"}, "-latency-factor"},
		{[]string{"-addr", "server4:443", "-latency-factor", "ten"}, "-latency-factor"},
		{[]string{"-addr", "server4:443", "-ca", notPEM}, "-ca"},
		{[]string{"-addr", "server4:443", "-ca", filepath.Join(dir, "missing.pem")}, "-ca"},
		{[]string{"-addr", "server4:443", "-ca", notPEM, "-insecure"}, "-ca"},
		{[]string{"-addr", "server4:443", "-out", filepath.Join(dir, "no", "report.json")}, "-out"},
		{[]string{"-addr", "server4:443", "-keylog", filepath.Join(dir, "no", "keys.log")}, "-keylog"},
		{[]string{"-addr", "server4:443", "-frames", "5"}, "-frames"},
		{[]string{"-addr", "server4:443", "extra"}, "extra"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, &stdout, &stderr)
		msg := stderr.String()
		if code != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.flag) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming %s", c.args, code, msg, c.flag)
		}
	}
}

func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "-latency-factor") {
		t.Errorf("-h: exit %d, %q", code, stdout.String())
	}
}

func TestCannotConnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	out := filepath.Join(t.TempDir(), "report.json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-addr", addr, "-insecure", "-out", out}, &stdout, &stderr); code != 1 {
		t.Errorf("exit %d, want 1; stderr %q", code, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a report was written without a connection")
	}
}

// TestReport runs one quick probe against x/net's server and checks report.json's schema.
func TestReport(t *testing.T) {
	addr, ca := h2test.StartReference(t, &http2.Server{}), h2test.CAFile(t)
	dir := t.TempDir()
	out, keys := filepath.Join(dir, "report.json"), filepath.Join(dir, "keys.log")
	var stdout, stderr bytes.Buffer
	code := run([]string{"-addr", addr, "-servername", "server", "-ca", ca, "-probes", "continuation-flood",
		"-out", out, "-keylog", keys, "-latency-factor", "20"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	t.Log(stdout.String())
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Format int              `json:"format"`
		Probes []map[string]any `json:"probes"`
	}
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Probes) != 1 || rep.Format != 2 {
		t.Fatalf("report %s: %v", data, err)
	}
	p := rep.Probes[0]
	var keysGot []string
	for k := range p {
		keysGot = append(keysGot, k)
	}
	sort.Strings(keysGot)
	want := []string{"attempts", "baseline_p50_ms", "baseline_p95_ms", "cpus", "cut", "cut_after_ms", "cve", "during_p50_ms", "during_p95_ms",
		"frames_sent", "good_failures", "goaway_code", "latency_limit_ms", "latency_ok", "load_1m", "probe", "reason", "result",
		"run_queue", "sched_delay_max_ms", "sched_delay_p99_ms", "server_action", "slack_scale"}
	sort.Strings(want)
	if !reflect.DeepEqual(keysGot, want) {
		t.Errorf("report fields %v, want %v", keysGot, want)
	}
	if p["probe"] != "continuation-flood" || p["result"] != "passed" || p["server_action"] != "goaway" || p["goaway_code"] != "PROTOCOL_ERROR" {
		t.Errorf("x/net against the CONTINUATION flood: %v", p)
	}
	// The machine next to the verdict: the CPUs, the slack scale (at least 1), the limit it gave.
	if p["attempts"] != 1.0 || p["cpus"].(float64) < 1 || p["slack_scale"].(float64) < 1 || p["latency_limit_ms"].(float64) < 100 {
		t.Errorf("machine numbers: %v", p)
	}
	if fi, err := os.Stat(keys); err != nil || fi.Size() == 0 {
		t.Errorf("keylog not written: %v", err)
	}
}
