package covgate

import (
	"strings"
	"testing"
)

func TestPercentLikeGcovr(t *testing.T) {
	cases := []struct {
		c    Counts
		want float64
	}{
		{Counts{0, 0}, 100},
		{Counts{1, 3}, 33.3},
		{Counts{2, 3}, 66.7},
		{Counts{9999, 10000}, 99.9}, // never rounds up to a complete 100
		{Counts{10, 10}, 100},
	}
	for _, c := range cases {
		if got := c.c.Percent(); got != c.want {
			t.Errorf("%v: %v, want %v", c.c, got, c.want)
		}
	}
}

func TestJudge(t *testing.T) {
	f, err := Parse("g.yml", []byte("targets:\n  t: {files: [x], lines: 90, branches: 75, functions: 80}\n"))
	if err != nil {
		t.Fatal(err)
	}
	g := f.Gate("t")
	pass := Measured{"lines": {90, 100}, "branches": {75, 100}, "functions": {8, 10}}
	if b := Judge(g, pass); len(b) != 0 {
		t.Fatalf("exactly at the thresholds must pass: %v", b)
	}
	fail := Measured{"lines": {899, 1000}, "branches": {80, 100}, "functions": {7, 10}}
	b := Judge(g, fail)
	if len(b) != 2 || b[0].Metric != "lines" || b[1].Metric != "functions" {
		t.Fatalf("got %v", b)
	}
	if got := b[0].String(); got != "coverage gate FAILED: t lines measured 89.9% < threshold 90.0%" {
		t.Fatalf("line: %q", got)
	}
	// A file set that matched nothing is not 100% (gcovr would say so).
	empty := Judge(g, Measured{"lines": {0, 0}, "branches": {0, 0}, "functions": {0, 0}})
	if len(empty) != 1 || !strings.Contains(empty[0].String(), "matched no measured line") {
		t.Fatalf("empty set: %v", empty)
	}
}

func TestGcovrFailed(t *testing.T) {
	if m, err := GcovrFailed(0); err != nil || len(m) != 0 {
		t.Fatal(m, err)
	}
	if m, err := GcovrFailed(2 | 16); err != nil || strings.Join(m, ",") != "lines,functions" {
		t.Fatal(m, err)
	}
	if _, err := GcovrFailed(1); err == nil {
		t.Fatal("exit 1 is gcovr failing, not a gate")
	}
	if m, err := GcovrFailed(4 | 1); err == nil || len(m) != 1 {
		t.Fatal(m, err)
	}
}
