package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/conformance/h2/h2test"
	"github.com/wirelab/wirelab/internal/h2suite"
	"golang.org/x/net/http2"
)

func TestBadInputExits2WithOneLineNamingTheFlag(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.pem")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o644)
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{nil, "-addr"},
		{[]string{"-addr", "server4"}, "-addr"},
		{[]string{"-addr", "server4:http"}, "-addr"},
		{[]string{"-addr", "server4:443", "-timeout", "0"}, "-timeout"},
		{[]string{"-addr", "server4:443", "-cases", "6.9,bogus"}, "-cases"},
		{[]string{"-addr", "server4:443", "-ca", filepath.Join(dir, "missing.pem")}, "-ca"},
		{[]string{"-addr", "server4:443", "-ca", notPEM}, "-ca"},
		{[]string{"-addr", "server4:443", "-ca", notPEM, "-insecure"}, "-ca"},
		{[]string{"-addr", "server4:443", "-out", filepath.Join(dir, "no", "such", "dir", "r.json")}, "-out"},
		{[]string{"-addr", "server4:443", "-keylog", filepath.Join(dir, "no", "keys.log")}, "-keylog"},
		{[]string{"-addr", "server4:443", "-bogus"}, "-bogus"},
		{[]string{"-addr", "server4:443", "extra"}, "unexpected argument"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, &stdout, &stderr)
		msg := stderr.String()
		if code != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.flag) {
			t.Errorf("h2check %q: exit %d, stderr %q; want 2 and one line naming %s", tc.args, code, msg, tc.flag)
		}
	}
}

func TestUnreachableServerExits1(t *testing.T) {
	var stdout, stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "report.json")
	if code := run([]string{"-addr", "127.0.0.1:1", "-insecure", "-out", out}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1; stderr %q", code, stderr.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a report was written for a server that was never reached")
	}
}

func TestReportAndKeylog(t *testing.T) {
	dir := t.TempDir()
	ca, out, keys := h2test.CAFile(t), filepath.Join(dir, "report.json"), filepath.Join(dir, "keys.log")
	addr := h2test.StartReference(t, &http2.Server{MaxUploadBufferPerStream: 65535})

	var stdout, stderr bytes.Buffer
	args := []string{"-addr", addr, "-servername", "server", "-ca", ca, "-out", out, "-keylog", keys,
		"-cases", "6.9.1-enforces-receive-window,rfc9218,8.2.2"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, want 0; stderr %q", code, stderr.String())
	}
	var rep struct {
		Summary map[string]int `json:"summary"`
		Cases   []struct {
			Case, Requirement, Result, Reason string
			Frames                            []string
		} `json:"cases"`
	}
	data, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(data, &rep) != nil {
		t.Fatalf("report: %v\n%s", err, data)
	}
	if len(rep.Cases) != 3 || rep.Summary["passed"] != 2 || rep.Summary["failed"] != 1 {
		t.Errorf("summary %v, want 2 passed and 1 failed (x/net answers te: gzip with 400)\n%s", rep.Summary, data)
	}
	for _, c := range rep.Cases {
		if c.Requirement == "" || c.Reason == "" || len(c.Frames) == 0 {
			t.Errorf("verdict lacks requirement, reason or frames: %+v", c)
		}
	}
	// One CLIENT_TRAFFIC_SECRET_0 line per connection (the probe and each case), as tshark reads.
	log, _ := os.ReadFile(keys)
	if n := strings.Count(string(log), "CLIENT_TRAFFIC_SECRET_0 "); n < 4 {
		t.Errorf("keylog has %d CLIENT_TRAFFIC_SECRET_0 lines, want one per connection (>= 4):\n%s", n, log)
	}
	if !strings.Contains(stdout.String(), "2 passed, 1 failed, 0 skipped") {
		t.Errorf("stdout %q lacks the summary line", stdout.String())
	}
}

func TestInsecureSkipsVerification(t *testing.T) {
	addr := h2test.StartReference(t, &http2.Server{})
	out := filepath.Join(t.TempDir(), "report.json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-addr", addr, "-servername", "elsewhere", "-insecure", "-out", out, "-cases", "rfc9218"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, want 0; stderr %q", code, stderr.String())
	}
	// Without -insecure the wrong name must not verify: that is a failure to connect.
	if code := run([]string{"-addr", addr, "-servername", "elsewhere", "-out", out, "-cases", "rfc9218"}, &stdout, &stderr); code != 1 {
		t.Errorf("exit %d for an unverifiable certificate, want 1", code)
	}
}

// A case the server's behaviour made impossible to judge is reported as skipped with that
// behaviour named in "skip" (report format 2), and the h2 suite reads it as a run-time skip.
func TestSkipNamesTheServerBehaviour(t *testing.T) {
	ca, out := h2test.CAFile(t), filepath.Join(t.TempDir(), "report.json")
	addr := h2test.StartRaw(t, h2test.AcceptWindowOverrun)
	var stdout, stderr bytes.Buffer
	args := []string{"-addr", addr, "-servername", "server", "-ca", ca, "-out", out, "-timeout", "0.3",
		"-cases", "6.1-padded-overrun,6.9.1-enforces-receive-window"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, want 0; stderr %q", code, stderr.String())
	}
	var rep struct {
		Format int `json:"format"`
		Cases  []struct {
			Case, Result, Skip, Reason string
		} `json:"cases"`
	}
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &rep); err != nil || rep.Format != 2 || len(rep.Cases) != 2 {
		t.Fatalf("report (%v):\n%s", err, data)
	}
	for _, c := range rep.Cases {
		want := map[string]string{"6.1-padded-overrun": "skipped/window-not-enforced", "6.9.1-enforces-receive-window": "failed/"}[c.Case]
		if got := c.Result + "/" + c.Skip; got != want {
			t.Errorf("%s: %s (%s), want %s", c.Case, got, c.Reason, want)
		}
	}
	v, err := h2suite.ReadH2checkReport(out, "6.1-padded-overrun")
	if err != nil || !v.SkippedAtRunTime() || v.Skip != "window-not-enforced" || !strings.Contains(v.Reason, "accepts DATA beyond its window") {
		t.Errorf("the h2 suite read %+v, %v", v, err)
	}
	if !strings.Contains(stdout.String(), "0 passed, 1 failed, 1 skipped") {
		t.Errorf("stdout %q lacks the summary line", stdout.String())
	}
}
