package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/observed"
)

// converterBin is wirelab's grpcweb-converter, built once for the package's tests.
var converterBin string

func TestMain(m *testing.M) {
	// The plays at a smaller scale: gaps stay several times larger than the allowed lateness,
	// so that a buffering or stalling peer still misses its deadline by far.
	longStreamGap, longStreamSlack = 250*time.Millisecond, 500*time.Millisecond
	largeMessagePause, largeMessageWithin = 1500*time.Millisecond, 500*time.Millisecond
	downDeadline = 2 * time.Second
	cutWait, settleWait = 2*time.Second, 3*time.Second

	dir, err := os.MkdirTemp("", "grpcweb-probe-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	converterBin = filepath.Join(dir, "grpcweb-converter")
	build := exec.Command("go", "build", "-o", converterBin, "github.com/wirelab/wirelab/images/grpcweb-converter")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building grpcweb-converter: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// startConverter runs wirelab's converter as a subprocess on a loopback port and returns its
// address, read from its start-up line.
func startConverter(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(converterBin, append([]string{"--listen", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		// "grpcweb-converter: edge mode on 127.0.0.1:PORT, upstream http://..."
		if _, rest, ok := strings.Cut(lines.Text(), " mode on "); ok {
			addr, _, _ := strings.Cut(rest, ",")
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return addr
		}
	}
	t.Fatalf("grpcweb-converter %q did not start", args)
	return ""
}

// edge runs an h2c edge converter in front of the gRPC-web origin at upstream.
func edge(t *testing.T, upstream string, text bool, args ...string) string {
	if text {
		args = append(args, "--text")
	}
	return startConverter(t, append([]string{"--mode", "edge", "--h2c", "--upstream", "http://" + upstream}, args...)...)
}

// origin runs an origin converter in front of the h2c gRPC server at upstream.
func origin(t *testing.T, upstream string, args ...string) string {
	return startConverter(t, append([]string{"--mode", "origin", "--upstream", "http://" + upstream}, args...)...)
}

// serve runs h in-process on a loopback port as role speaks (server: h2c, origin: HTTP/1.1).
func serve(t *testing.T, role string, h http.Handler) string {
	t.Helper()
	ln := listenLoopback(t)
	srv := newRoleServer(role, h)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// playPart runs role's part in case name and returns its address: a closed port when it is down.
func playPart(t *testing.T, role, name string) string {
	t.Helper()
	if role == roleServer && cases[name].grpc != nil {
		addr, _ := playGRPC(t, name)
		return addr
	}
	h, down := cases[name].part(role)
	switch {
	case down:
		return closedAddr(t)
	case h == nil:
		t.Fatalf("role %s plays nothing in %s", role, name)
	}
	return serve(t, role, h)
}

// playGRPC runs case name's grpc-go server in-process, writing what it saw to a file. fence stops
// it as the lab's fence does (the open calls are recorded, then the stop line) and returns the
// whole file; it runs at cleanup too.
func playGRPC(t *testing.T, name string) (addr string, fence func() []observed.Line) {
	t.Helper()
	path := filepath.Join(t.TempDir(), observed.File)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	obs := newObserver(name, f)
	srv := newGRPCServer(cases[name], obs, nil)
	ln := listenLoopback(t)
	go func() { _ = srv.Serve(ln) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			obs.stop()
			srv.Stop()
			f.Close()
		})
	}
	t.Cleanup(stop)
	return ln.Addr().String(), func() []observed.Line {
		stop()
		lines, err := observed.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return lines
	}
}

// listenLoopback listens on a free loopback port.
func listenLoopback(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// closedAddr is a loopback address nothing listens on: connections are refused.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln := listenLoopback(t)
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// startRole runs the probe with args (a server or origin role) in-process; it returns the address
// from its start-up line ("... on ADDR"), and stop, which ends the role and returns its exit code.
func startRole(t *testing.T, args []string) (addr string, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, w := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, args, w, io.Discard)
		w.Close()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("%q: no start-up line: %v", args, err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	var once sync.Once
	code := 0
	stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { stop() })
	return line[strings.LastIndex(line, " ")+1 : len(line)-1], stop
}

// readFile is a file's content; a missing file fails the test.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runClient runs the client role's check of case name against target in-process.
func runClient(t *testing.T, name, target string, extra ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := run(context.Background(), append([]string{"--role", "client", "--case", name, "--target", target}, extra...), &out, &out)
	return code, out.String()
}

// wantExit runs the client's check of case name against target and wants exit code want; it
// returns the client's output.
func wantExit(t *testing.T, name, target string, want int) string {
	t.Helper()
	code, out := runClient(t, name, target)
	if code != want {
		t.Errorf("exit %d, want %d:\n%s", code, want, out)
	}
	return out
}

// edgeExit is the exit an edge case's check wants behind an edge speaking text or binary
// gRPC-web: the text case does not apply behind a binary edge (127).
func edgeExit(name string, text bool) int {
	if name == "text_padded_chunks_decoded" && !text {
		return 127
	}
	return 0
}

// lastLine is the verdict line of a client's output.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[len(lines)-1]
}

// casesOf lists the cases of kind k.
func casesOf(k kind) []string {
	var names []string
	for name, pc := range cases {
		if pc.kind == k {
			names = append(names, name)
		}
	}
	return names
}
