package grpcwebsuite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
)

func TestLoadTheRepositorysFiles(t *testing.T) {
	cases, err := LoadCases("../../conformance/grpcweb/cases.yml")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, c := range cases {
		kinds[c.Kind]++
	}
	if kinds[KindInterop] != 14 || kinds[KindChain] != 11 || kinds[KindEdge] != 4 || kinds[KindOrigin] != 4 || kinds[KindBench] != 1 {
		t.Fatalf("cases by kind: %v; want 14 interop, 11 chain, 4 edge, 4 origin and the bench", kinds)
	}
	chains, err := LoadChains("../../conformance/grpcweb/chains.yml")
	if err != nil || !chains[0].Direct() {
		t.Fatalf("chains: %v (first must be direct)", err)
	}
}

// Bad files fail with the file, the entry and the field.
func TestLoadRejectsBadEntries(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for body, want := range map[string]string{
		"cases: [{name: a, abbr: A, testcase: a, limit: 0s}]":                                                   "cases[0].limit",
		"cases: [{name: A!, abbr: A, testcase: a, limit: 1s}]":                                                  "cases[0].name",
		"cases: [{name: a, abbr: A, testcase: a, limit: 1s, tiemout: 2s}]":                                      "field tiemout not found",
		"cases: [{name: a, abbr: A, testcase: a, limit: 1s}, {name: a, abbr: B, testcase: b, limit: 1s}]":       "cases[1].name",
		"cases: [{name: a, abbr: A, testcase: a, limit: 1s, kind: edj}]":                                        "cases[0].kind",
		"cases: [{name: a, abbr: A, testcase: a, limit: 1s, down: true}]":                                       "cases[0].down",
		"cases: [{name: a, abbr: A, testcase: a, limit: 1s, typical: soon}]":                                    "cases[0].typical",
		"cases: [{name: a, abbr: A, testcase: a, limit: 1s, kind: chain, observed: true}]":                      "cases[0].observed",
		"cases: [{name: a, abbr: A, testcase: deadline_reaches_server, limit: 1s, kind: edge, observed: true}]": "cases[0].observed",
	} {
		if _, err := LoadCases(write("cases.yml", body)); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "cases.yml") {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	for body, want := range map[string]string{
		"chains: [{name: wirelab, edge: e, origin: o}]":  "no \"direct\" chain",
		"chains: [{name: direct}, {name: x, origin: o}]": "chains[1].edge",
		"chains: [{name: direct}, {name: x, edge: e}]":   "chains[1].origin",
		"chains: [{name: direct, edge: e}]":              "chains[0].edge",
		"chains: [{name: direct}, {name: direct}]":       "chains[1].name",
	} {
		if _, err := LoadChains(write("chains.yml", body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// The oracle: a chain fails where it differs from direct, either way.
func TestCompareWithDirect(t *testing.T) {
	r := func(chain, result, reason string) matrix.Result {
		return matrix.Result{Cell: matrix.Cell{Server: "s", Client: "c", Case: "k", Axes: map[string]string{AxisChain: chain}}, Result: result, Reason: reason}
	}
	for _, tc := range []struct {
		direct, chain, want, reason string
	}{
		{matrix.Succeeded, matrix.Succeeded, matrix.Succeeded, ""},
		{matrix.Succeeded, matrix.Failed, matrix.Failed, "x (passed direct)"},
		{matrix.Failed, matrix.Succeeded, matrix.Failed, "passed through the chain but failed direct (d): the chain changed the outcome"},
		{matrix.Failed, matrix.Failed, matrix.Failed, "x (failed direct too)"},
	} {
		reason := ""
		if tc.chain == matrix.Failed {
			reason = "x"
		}
		out := CompareWithDirect([]matrix.Result{r(DirectChain, tc.direct, "d"), r("w", tc.chain, reason)})
		if out[1].Result != tc.want || out[1].Reason != tc.reason || out[0].Reason != "d" {
			t.Errorf("direct %s, chain %s: got %s %q", tc.direct, tc.chain, out[1].Result, out[1].Reason)
		}
	}
}

func TestOutcomeNamesTheStatus(t *testing.T) {
	res, reason := outcome(1, "2026/11/22 22:10:00 FATAL: [interop] rpc error: code = Unknown desc = x")
	if res != matrix.Failed || reason != "client exit 1: [interop] rpc error: code = Unknown desc = x" {
		t.Errorf("%s %q", res, reason)
	}
	if res, _ := outcome(0, ""); res != matrix.Succeeded {
		t.Error(res)
	}
	if res, _ := outcome(127, ""); res != matrix.Unsupported {
		t.Error(res)
	}
}

// The repository's baseline names only cells the suite has (a stale entry is bad input).
func TestRepositoryBaselineIsCurrent(t *testing.T) {
	cases, err := LoadCases("../../conformance/grpcweb/cases.yml")
	if err != nil {
		t.Fatal(err)
	}
	chains, err := LoadChains("../../conformance/grpcweb/chains.yml")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := manifest.LoadDir("../../images")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := matrix.LoadBaseline("../../conformance/grpcweb/expected.yml", Universe(chains, cases, ms)); err != nil {
		t.Fatal(err)
	}
}
