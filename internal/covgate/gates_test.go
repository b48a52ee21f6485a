package covgate

import (
	"path/filepath"
	"strings"
	"testing"
)

const goodGates = `# comment kept by the ratchet
targets:
  nghttp3-qpack-decoder:
    files: ['nghttp3-[^/]*/lib/nghttp3_qpack.*\.c']
    lines: 80        # raised by make coverage-ratchet
    branches: 60.5
    functions: 90
  wirelab-go:
    kind: go
    files: ['internal/.*\.go', 'cmd/.*\.go']
    lines: 50
    functions: 40
`

func TestParseGood(t *testing.T) {
	f, err := Parse("gates.yml", []byte(goodGates))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Gates) != 2 {
		t.Fatalf("gates: %d", len(f.Gates))
	}
	g := f.Gate("nghttp3-qpack-decoder")
	if g.Kind != KindC || *g.Thresholds["branches"] != 60.5 || len(g.Files) != 1 {
		t.Fatalf("bad gate %+v", g)
	}
	gg := f.Gate("wirelab-go")
	if gg.Kind != KindGo || gg.Thresholds["branches"] != nil || !gg.MatchesFile("internal/cli/cli.go") || gg.MatchesFile("images/sim/main.go") {
		t.Fatalf("bad go gate %+v", gg)
	}
	if got := strings.Join(GcovrArgs(g), " "); got != "--fail-under-line 80 --fail-under-branch 60.5 --fail-under-function 90" {
		t.Fatalf("gcovr args %q", got)
	}
	if got := f.Targets(KindC); len(got) != 1 || got[0] != "nghttp3-qpack-decoder" {
		t.Fatalf("targets %v", got)
	}
}

// Every malformed file is one line naming the file and the field.
func TestParseBad(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"yaml", "targets: [", "gates.yml: (yaml): "},
		{"empty", "", "gates.yml: (top level): "},
		{"unknown top", "target: {}", "gates.yml: target: unknown field"},
		{"no targets", "targets: {}", "gates.yml: targets: missing or empty"},
		{"bad name", "targets:\n  Foo: {files: [a], lines: 1}", "gates.yml: targets.Foo: bad target name"},
		{"gate not mapping", "targets:\n  a: 5", "gates.yml: targets.a.(gate): want a mapping"},
		{"unknown field", "targets:\n  a: {files: [a], lines: 1, line: 2}", "gates.yml: targets.a.line: unknown field"},
		{"over 100", "targets:\n  a: {files: [a], lines: 100.5}", "gates.yml: targets.a.lines: 100.5: want a number of percent"},
		{"negative", "targets:\n  a: {files: [a], branches: -1}", "gates.yml: targets.a.branches: -1: want a number"},
		{"string", "targets:\n  a: {files: [a], functions: '90'}", `gates.yml: targets.a.functions: "90": want a number`},
		{"percent sign", "targets:\n  a: {files: [a], lines: 90%}", `gates.yml: targets.a.lines: "90%": want a number`},
		{"no files", "targets:\n  a: {lines: 1}", "gates.yml: targets.a.files: missing"},
		{"files not list", "targets:\n  a: {files: a, lines: 1}", "gates.yml: targets.a.files: want a non-empty list"},
		{"bad regexp", "targets:\n  a: {files: ['a(', 'b'], lines: 1}", "gates.yml: targets.a.files[0]: bad regular expression"},
		{"no threshold", "targets:\n  a: {files: [a]}", "gates.yml: targets.a.lines: no threshold at all"},
		{"bad kind", "targets:\n  a: {kind: rust, files: [a], lines: 1}", `gates.yml: targets.a.kind: "rust": want c or go`},
		{"go branches", "targets:\n  a: {kind: go, files: [a], lines: 1, branches: 2}", "gates.yml: targets.a.branches: Go coverage profiles have no branch data"},
		{"duplicate", "targets:\n  a: {files: [a], lines: 1}\n  a: {files: [a], lines: 1}", "gates.yml: "},
	}
	for _, c := range cases {
		_, err := Parse("gates.yml", []byte(c.data))
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s: got %q, want prefix %q on one line", c.name, msg, c.want)
		}
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yml"))
	if err == nil || !strings.Contains(err.Error(), "nope.yml: (file): ") {
		t.Fatalf("got %v", err)
	}
}

// The repository's own gates file must parse.
func TestRepositoryGatesFile(t *testing.T) {
	if _, err := Load("../../coverage/gates.yml"); err != nil {
		t.Fatal(err)
	}
}
