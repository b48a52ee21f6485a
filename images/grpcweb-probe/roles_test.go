package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestBadFlagsExit2WithOneLineNamingTheFlag(t *testing.T) {
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"--case", "trailers_only_status_kept"}, "--role"},
		{[]string{"--role", "proxy", "--case", "trailers_only_status_kept"}, "--role"},
		{[]string{"--role", "server"}, "--case"},
		{[]string{"--role", "server", "--case", "no_such_case"}, "--case"},
		{[]string{"--role", "client", "--case", "trailers_only_status_kept"}, "--target"},
		{[]string{"--role", "client", "--case", "trailers_only_status_kept", "--target", "edge"}, "--target"},
		{[]string{"--role", "client", "--case", "bench", "--target", "edge:443", "--bench-seconds", "0"}, "--bench-seconds"},
		{[]string{"--role", "client", "--case", "bench", "--target", "edge:443", "--rtt", "-1s"}, "--rtt"},
		{[]string{"--role", "client", "--case", "bench", "--target", "edge:443", "--rtt", "40"}, "-rtt"},
		{[]string{"--role", "server", "--case", "bench", "--bogus"}, "-bogus"},
		{[]string{"--role", "server", "--case", "bench", "extra"}, "extra"},
		{[]string{"--role", "client", "--case", "deadline_reaches_server", "--target", "edge:443", "--observed", "o.jsonl"}, "--observed"},
		{[]string{"--role", "origin", "--case", "deadline_reaches_server", "--observed", "o.jsonl"}, "--observed"},
		{[]string{"--role", "server", "--case", "deadline_reaches_server", "--listen", "127.0.0.1:0", "--observed", "/nonexistent/dir/o.jsonl"}, "--observed"},
		{[]string{"--role", "server", "--case", "duplicate_trailers_kept", "--listen", "127.0.0.1:0", "--log", "/nonexistent/dir/probe.jsonl"}, "--log"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tt.args, &stdout, &stderr)
		msg := stderr.String()
		if code != 2 || !strings.Contains(msg, tt.flag) || strings.Count(msg, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line naming %s", tt.args, code, msg, tt.flag)
		}
	}
}

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"--version"}, &out, &out); code != 0 || out.String() != "wirelab grpcweb-probe "+runtime.Version()+"\n" {
		t.Fatalf("--version: exit %d, %q", code, out.String())
	}
}

// A role without a part in the case exits 127 at once, saying so.
func TestRoleWithoutAPartExits127(t *testing.T) {
	for _, tt := range []struct{ role, name string }{
		{roleOrigin, "trailers_only_status_kept"},
		{roleServer, "body_trailers_mixed_case_accepted"},
		{roleOrigin, "body_trailers_lowercase"},
		{roleServer, "origin_down_unavailable"},
		{roleServer, benchCase},
	} {
		var out bytes.Buffer
		code := run(context.Background(), []string{"--role", tt.role, "--case", tt.name, "--listen", "127.0.0.1:0"}, &out, &out)
		if want := "role " + tt.role + " plays nothing in case " + tt.name + "\n"; code != 127 || out.String() != want {
			t.Errorf("%s in %s: exit %d, %q; want 127 and %q", tt.role, tt.name, code, out.String(), want)
		}
	}
}

// The down side of a *_down_* case runs without listening until it is stopped, then exits 0: it
// must not return before its context ended (checked when it returns, not after a pause).
func TestDownSideDoesNotListenAndStopsCleanly(t *testing.T) {
	for _, tt := range []struct{ role, name string }{{roleServer, "upstream_down_unavailable"}, {roleOrigin, "origin_down_unavailable"}} {
		ctx, cancel := context.WithCancel(context.Background())
		stdout, w := io.Pipe()
		type end struct {
			code    int
			stopped bool // ctx had ended when run returned
		}
		done := make(chan end, 1)
		go func() {
			code := run(ctx, []string{"--role", tt.role, "--case", tt.name}, w, w)
			done <- end{code, ctx.Err() != nil}
			w.Close()
		}()
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if want := "not listening: case " + tt.name + "\n"; err != nil || line != want {
			t.Fatalf("%s: first line %q (%v), want %q", tt.name, line, err, want)
		}
		go func() { _, _ = io.Copy(io.Discard, stdout) }()
		cancel()
		if e := <-done; e.code != 0 || !e.stopped {
			t.Errorf("%s: exit %d, returned after the stop: %v; want 0, true", tt.name, e.code, e.stopped)
		}
	}
}

// The server role serves the case until stopped and logs each request it saw as a JSON line.
func TestServerRoleLogsRequests(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "probe.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	stdout, w := io.Pipe()
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"--role", "server", "--case", "duplicate_trailers_kept", "--listen", "127.0.0.1:0", "--log", logPath}, w, io.Discard)
		w.Close()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	addr := line[strings.LastIndex(line, " ")+1 : len(line)-1] // "... playing CASE on ADDR"
	if code, out := runClient(t, "duplicate_trailers_kept", addr); code != 0 {
		t.Fatalf("client: exit %d\n%s", code, out)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("server: exit %d after stop", code)
	}
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var e logEntry
	if err := json.Unmarshal(bytes.TrimSpace(b), &e); err != nil {
		t.Fatalf("log %q: %v", b, err)
	}
	if e.Role != "server" || e.Case != "duplicate_trailers_kept" || e.Method != "POST" || e.Path != unaryPath ||
		e.Proto != "HTTP/2.0" || e.Headers["Te"][0] != "trailers" || e.BodyBytes == nil || *e.BodyBytes != 7 { // frame header + SimpleRequest{response_size: 10}
		t.Errorf("log entry %+v; want the UnaryCall's method, path, proto, headers and 7 body bytes", e)
	}
}

// The client appends its verdict to the log.
func TestClientLogsItsVerdict(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "probe.jsonl")
	name := "upstream_down_unavailable"
	if code, out := runClient(t, name, closedAddr(t), "--log", logPath); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	b, _ := os.ReadFile(logPath)
	var e logEntry
	if err := json.Unmarshal(bytes.TrimSpace(b), &e); err != nil || e.Role != "client" || e.Case != name || e.Exit == nil || *e.Exit != 0 {
		t.Errorf("log %q (%v); want the client's exit 0 for %s", b, err, name)
	}
}
