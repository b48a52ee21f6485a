package matrix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var testUniverse = Universe{AxisServer: {"haproxy", "nginx"}, AxisClient: {"quic-go", "aioquic"}, AxisCase: {"handshake", "transfer"}}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "expected.yml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A bad or stale entry is an error naming the file, the entry and the field.
func TestLoadBaselineRejectsBadEntries(t *testing.T) {
	for body, want := range map[string]string{
		"expected: [{server: haproxy, client: '*', case: transfer, status: failing, signature: '*', reason: x}]":    "expected[0].status",
		"expected: [{server: haproxy, client: '*', case: transfer, status: fail, signature: '*'}]":                  "expected[0].reason",
		"expected: [{server: haproxy, client: '*', case: transfer, status: fail, reason: x}]":                       "expected[0].signature: missing",
		"expected: [{server: caddy, client: '*', case: transfer, status: fail, signature: '*', reason: x}]":         "expected[0].server: \"caddy\" matches no server",
		"expected: [{server: haproxy, client: '[', case: transfer, status: fail, signature: '*', reason: x}]":       "expected[0].client",
		"expected: [{server: haproxy, client: '*', case: zerortt, status: fail, signature: '*', reason: x}]":        "expected[0].case",
		"expected: [{server: haproxy, client: '*', case: transfer, status: fail, signature: '*', reason: x, y: 1}]": "expected[0].y: this suite has no axis \"y\"",
		// A flaky entry carries its measured rate, for one pair: no wildcard over a whole column.
		"expected: [{server: '*', client: '*', case: transfer, status: flaky, pass_rate: 0.5, runs: 10, reason: x}]":      "expected[0].server: \"*\": a flaky entry names one pair",
		"expected: [{server: haproxy, client: aioquic, case: transfer, status: flaky, reason: x}]":                        "expected[0].pass_rate",
		"expected: [{server: haproxy, client: aioquic, case: transfer, status: flaky, pass_rate: 1, runs: 5, reason: x}]": "expected[0].pass_rate",
	} {
		if _, err := LoadBaseline(writeFile(t, body), testUniverse); err == nil || !strings.Contains(err.Error(), want) ||
			!strings.Contains(err.Error(), "expected.yml") {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

func res(server, client, c, result, reason string) Result {
	return Result{Cell: Cell{Server: server, Client: client, Case: c}, Result: result, Reason: reason}
}

// Only what an entry expects as it happened passes the gate: a failure with the entry's
// signature; another signature, a failure without entry, an unsupported-at-run-time cell the
// manifests declared supported are regressions; an expected failure that passed is stale.
func TestBaselineCompare(t *testing.T) {
	b, err := LoadBaseline(writeFile(t, `expected:
  - {server: haproxy, client: '*', case: transfer, status: fail, signature: 'files: # of # missing*', reason: resets late requests}
  - {server: nginx, client: quic-go, case: transfer, status: unsupported, signature: '*answered #*', reason: no such case}
`), testUniverse)
	if err != nil {
		t.Fatal(err)
	}
	rep := b.Compare([]Result{
		res("haproxy", "quic-go", "transfer", Failed, "files: 2 of 3 missing, 0 differ"),      // expected
		res("haproxy", "aioquic", "transfer", Failed, "client exited 1: connection refused"),  // another signature
		res("haproxy", "quic-go", "handshake", Succeeded, ""),                                 // nothing
		res("nginx", "aioquic", "transfer", Failed, "timeout"),                                // no entry
		res("nginx", "aioquic", "handshake", UnsupportedAtRunTime, "the server answered 127"), // declared supported
		res("nginx", "quic-go", "transfer", UnsupportedAtRunTime, "the server answered 127"),  // expected
		res("nginx", "quic-go", "handshake", Unsupported, "not declared"),                     // nothing
		res("haproxy", "aioquic", "handshake", Succeeded, ""),                                 // nothing
	})
	if len(rep.Expected) != 2 || len(rep.Regressions) != 3 {
		t.Fatalf("%+v", rep)
	}
	want := []string{`expected "files: # of # missing*", got "client exited #: connection refused"`, "timeout",
		"unsupported at run time, declared supported: the server answered 127"}
	for i, r := range rep.Regressions {
		if r.Why != want[i] {
			t.Errorf("regression %d (%s): %q, want %q", i, r.Label(), r.Why, want[i])
		}
	}
	rep = b.Compare([]Result{res("haproxy", "aioquic", "transfer", Succeeded, "")})
	if len(rep.NewlyPassing) != 1 || len(rep.Regressions) != 0 {
		t.Errorf("an expected failure that passed is stale: %+v", rep)
	}
}

// A sub-case is judged on its own: a new failing h2spec case is a regression even though its
// cell already had expected failures; the cell itself, failed by its sub-cases alone, is not.
func TestBaselineJudgesSubCases(t *testing.T) {
	u := Universe{AxisServer: {"nginx"}, AxisClient: {"h2spec"}, AxisCase: {"h2spec"}}
	b, err := LoadBaseline(writeFile(t, `expected:
  - {server: nginx, client: h2spec, case: h2spec, sub: http2/5.1/1, status: fail, signature: '*', reason: known}
`), u)
	if err != nil {
		t.Fatal(err)
	}
	cell := Result{Cell: Cell{Server: "nginx", Client: "h2spec", Case: "h2spec"}, Result: Failed, Reason: "2 h2spec cases failed", BySubs: true}
	sub := func(name, result string) Result { r := cell; r.Sub, r.Result, r.BySubs = name, result, false; return r }
	rows := []Result{cell, sub("http2/5.1/1", Failed), sub("http2/6.9/2", Succeeded)}
	if rep := b.Compare(rows); len(rep.Regressions) != 0 || len(rep.Expected) != 1 {
		t.Errorf("the known sub-case alone: %+v", rep)
	}
	rows[2] = sub("http2/6.9/2", Failed)
	if rep := b.Compare(rows); len(rep.Regressions) != 1 || rep.Regressions[0].Sub != "http2/6.9/2" {
		t.Errorf("one more failing h2spec case must be a regression: %+v", rep)
	}
	cell.BySubs, cell.Reason = false, "h2spec (exit 1): no junit.xml"
	if rep := b.Compare([]Result{cell}); len(rep.Regressions) != 1 {
		t.Errorf("a cell that failed by itself (no report) is judged by itself: %+v", rep)
	}
}

// A sub-case glob's * spans slashes: a group's prefix/* covers every case under it, and only
// those.
func TestBaselineSubGlobSpansSlashes(t *testing.T) {
	b, err := LoadBaseline(writeFile(t, `expected:
  - {server: s, client: c, case: cc, sub: grpc-h2c/Errors/*, status: fail, signature: '*', reason: known}
`), Universe{})
	if err != nil {
		t.Fatal(err)
	}
	sub := func(name string) Result {
		return Result{Cell: Cell{Server: "s", Client: "c", Case: "cc", Sub: name}, Result: Failed, Reason: "FAILED"}
	}
	rep := b.Compare([]Result{sub("grpc-h2c/Errors/HTTPVersion:2/Protocol:PROTOCOL_GRPC/unary/internal"), sub("grpc-h2c/Timeouts/HTTPVersion:2/unary")})
	if len(rep.Expected) != 1 || len(rep.Regressions) != 1 || rep.Regressions[0].Sub != "grpc-h2c/Timeouts/HTTPVersion:2/unary" {
		t.Errorf("prefix glob: %+v", rep)
	}
}

// A flaky entry's cell is held to its measured rate when it repeats (one-sided binomial test at
// FlakyAlpha); run once it decides nothing.
func TestBaselineFlakyRate(t *testing.T) {
	b, err := LoadBaseline(writeFile(t, `expected:
  - {server: nginx, client: aioquic, case: handshake, status: flaky, pass_rate: 0.8, runs: 10, reason: handshake deadlock}
`), testUniverse)
	if err != nil {
		t.Fatal(err)
	}
	repeated := func(passes, runs int) Result {
		r := res("nginx", "aioquic", "handshake", Succeeded, "")
		if 2*passes <= runs {
			r.Result = Failed
		}
		r.Repeat = &Repeats{Passes: passes, Runs: runs, Flaky: passes > 0 && passes < runs}
		return r
	}
	for _, tc := range []struct {
		passes, runs int
		regression   bool
	}{{8, 10, false}, {6, 10, false}, {3, 10, true}, {0, 10, true}, {1, 3, false}, {10, 10, false}} {
		rep := b.Compare([]Result{repeated(tc.passes, tc.runs)})
		if got := len(rep.Regressions) == 1; got != tc.regression {
			t.Errorf("%d/%d at rate 0.8: regression %v, want %v (%+v)", tc.passes, tc.runs, got, tc.regression, rep)
		}
	}
	if rep := b.Compare([]Result{res("nginx", "aioquic", "handshake", Failed, "x")}); len(rep.FlakyOnce) != 1 || len(rep.Regressions) != 0 {
		t.Errorf("a flaky cell run once decides nothing: %+v", rep)
	}
}

func TestBelowRate(t *testing.T) {
	for _, tc := range []struct {
		k, n  int
		rate  float64
		below bool
	}{{0, 5, 0.5, false}, {0, 10, 0.5, true}, {7, 10, 0.9, false}, {4, 10, 0.9, true}, {9, 10, 0.9, false}, {10, 10, 0.99, false}} {
		if got, p := BelowRate(tc.k, tc.n, tc.rate); got != tc.below {
			t.Errorf("%d of %d at %.2f: below %v (P %.4f), want %v", tc.k, tc.n, tc.rate, got, p, tc.below)
		}
	}
	if p := binomialCDF(2, 4, 0.5); p < 0.6874 || p > 0.6876 { // (1+4+6)/16
		t.Errorf("P(X<=2 | 4, .5) = %v, want 0.6875", p)
	}
}

// make baseline: new failures get exact entries with their signature, untriaged; an old entry
// whose signature the failure matches stays as written; a flake gets its measured rate; entries
// whose cells passed PruneAfter runs in a row go; what the run did not cover stays. The written
// file loads back and judges the run it came from as expected.
func TestWriteBaseline(t *testing.T) {
	old, err := LoadBaseline(writeFile(t, `expected:
  - {server: haproxy, client: '*', case: transfer, status: fail, signature: 'files: *', reason: the finding}
  - {server: nginx, client: quic-go, case: handshake, status: fail, signature: '*', reason: not run this time}
  - {server: haproxy, client: aioquic, case: handshake, status: fail, signature: '*', reason: passed once already, passed: 1}
  - {server: nginx, client: aioquic, case: transfer, status: fail, signature: '*', reason: passes now}
`), testUniverse)
	if err != nil {
		t.Fatal(err)
	}
	flaky := res("nginx", "quic-go", "transfer", Failed, "")
	flaky.Repeat = &Repeats{Passes: 3, Runs: 10, Flaky: true, Of: []Repetition{{Result: Failed, Reason: "timeout after 30 s"}}}
	results := []Result{
		res("haproxy", "quic-go", "transfer", Failed, "files: 1 of 3 missing"),             // old entry says it
		res("haproxy", "aioquic", "transfer", Failed, "client exited 1:   reset\nby peer"), // new signature: new entry
		res("haproxy", "aioquic", "handshake", Succeeded, ""),                              // second pass: pruned
		res("nginx", "aioquic", "transfer", Succeeded, ""),                                 // first pass: kept, counted
		flaky,
	}
	p := filepath.Join(t.TempDir(), "expected.yml")
	ch, err := WriteBaseline(p, results, old)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if ch.Added != 2 || ch.Pruned != 1 || ch.Carried != 1 || ch.Kept != 2 || ch.Untriaged != 2 {
		t.Errorf("changes %+v\n%s", ch, data)
	}
	for _, want := range []string{"reason: the finding", "signature: 'client exited #: reset by peer'", "reason: 'client exited 1: reset by peer'\n    untriaged: true",
		"reason: not run this time", "reason: passes now\n    passed: 1", "status: flaky\n    pass_rate: 0.3\n    runs: 10\n    reason: timeout after 30 s"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("written baseline lacks %q:\n%s", want, data)
		}
	}
	if strings.Contains(string(data), "passed once already") {
		t.Errorf("an entry that passed twice in a row stayed:\n%s", data)
	}
	b, err := LoadBaseline(p, testUniverse)
	if err != nil {
		t.Fatal(err)
	}
	if rep := b.Compare(results); len(rep.Regressions) != 0 {
		t.Errorf("the run a baseline was written from must pass it: %+v", rep)
	}
}
