package main

import (
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/observed"
)

// observedCases lists the cases judged from what the server saw.
func observedCases() []string {
	var names []string
	for name, pc := range cases {
		if pc.observed {
			names = append(names, name)
		}
	}
	return names
}

// chainTo builds a chain in front of the server at addr and returns its first hop.
type chainTo func(t *testing.T, server string) string

// The observed cases pass direct, through wirelab's converters (binary and text between them) and
// through a correct streaming origin written apart from wirelab's: the client's side passes, and
// so does what the server saw, read after the server stopped.
func TestObservedCasesPass(t *testing.T) {
	chains := map[string]chainTo{
		"direct":       func(t *testing.T, s string) string { return s },
		"wirelab":      func(t *testing.T, s string) string { return edge(t, origin(t, s), false) },
		"wirelab-text": func(t *testing.T, s string) string { return edge(t, origin(t, s), true) },
		"stream-origin": func(t *testing.T, s string) string {
			return edge(t, serve(t, roleOrigin, &streamOrigin{upstream: s}), false)
		},
	}
	for _, name := range observedCases() {
		for chain, target := range chains {
			t.Run(name+"/"+chain, func(t *testing.T) {
				t.Parallel()
				addr, fence := playGRPC(t, name)
				code, out := runClient(t, name, target(t, addr))
				if code != 0 {
					t.Fatalf("client: exit %d\n%s", code, out)
				}
				if err := observed.Judge(name, fence()); err != nil {
					t.Errorf("what the server saw: %v\n%s", err, out)
				}
			})
		}
	}
}

// Each observed case fails an origin converter with the bug it guards against, by what the
// server saw, while the client alone sees nothing wrong (exit 0): wirelab's converter with the
// bug switched on, and the separate streaming origin with the same bug.
func TestObservedCasesFailMisbehavingConverters(t *testing.T) {
	const cutEOS = "the client stream cut off after its first message: the server saw a clean end of stream after"
	const noDeadline = "deadline-20s: the server saw no deadline"
	tests := []struct {
		name, peer string
		chain      chainTo
		want       string
	}{
		{observed.CancelCase, "wirelab origin forwarding a cut body as its end (--misbehave cut-body-as-end)", func(t *testing.T, s string) string {
			return edge(t, origin(t, s, "--misbehave", "cut-body-as-end"), false)
		}, cutEOS},
		{observed.CancelCase, "streaming origin ignoring io.Copy's error", func(t *testing.T, s string) string {
			return edge(t, serve(t, roleOrigin, &streamOrigin{upstream: s, ignoreCopyError: true}), false)
		}, cutEOS},
		{observed.DeadlineCase, "wirelab origin dropping grpc-timeout (--misbehave drop-grpc-timeout)", func(t *testing.T, s string) string {
			return edge(t, origin(t, s, "--misbehave", "drop-grpc-timeout"), false)
		}, noDeadline},
		{observed.DeadlineCase, "wirelab edge dropping grpc-timeout", func(t *testing.T, s string) string {
			return edge(t, origin(t, s), false, "--misbehave", "drop-grpc-timeout")
		}, noDeadline},
		{observed.DeadlineCase, "streaming origin dropping grpc-timeout", func(t *testing.T, s string) string {
			return edge(t, serve(t, roleOrigin, &streamOrigin{upstream: s, dropTimeout: true}), false)
		}, noDeadline},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.peer, func(t *testing.T) {
			t.Parallel()
			addr, fence := playGRPC(t, tt.name)
			code, out := runClient(t, tt.name, tt.chain(t, addr))
			if code != 0 {
				t.Fatalf("client: exit %d, want 0 (the bug is invisible to it)\n%s", code, out)
			}
			if err := observed.Judge(tt.name, fence()); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("what the server saw: %v; want an error containing %q\n%s", err, tt.want, out)
			}
		})
	}
}

// The server role with a grpc-go server writes what it saw to --observed, complete with the stop
// line once stopped, and logs each call.
func TestGRPCServerRoleWritesObservations(t *testing.T) {
	dir := t.TempDir()
	path, logPath := dir+"/"+observed.File, dir+"/probe.jsonl"
	addr, stop := startRole(t, []string{"--role", "server", "--case", observed.DeadlineCase, "--listen", "127.0.0.1:0", "--observed", path, "--log", logPath})
	if code, out := runClient(t, observed.DeadlineCase, addr); code != 0 {
		t.Fatalf("client: exit %d\n%s", code, out)
	}
	if code := stop(); code != 0 {
		t.Fatalf("server: exit %d after stop", code)
	}
	lines, err := observed.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := observed.Judge(observed.DeadlineCase, lines); err != nil {
		t.Error(err)
	}
	if n := len(lines); n != len(observed.DeadlineCalls)+1 {
		t.Errorf("%d lines, want a line per call and the stop line", n)
	}
	if b := readFile(t, logPath); strings.Count(b, `"path":"/grpc.testing.TestService/UnaryCall"`) != len(observed.DeadlineCalls) {
		t.Errorf("request log %q: want a line per call", b)
	}
}
