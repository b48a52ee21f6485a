package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// toySuite is a whole suite in one file: three servers x two flavors (an axis of its own) x
// three cases, run in-process. Its verdicts come from a table (failing) a test sets; it counts
// how often each cell ran. Registering it is all it takes to get plan, journal, resume, shards,
// merge, baseline and JUnit from the generic path.
type toySuite struct {
	servers *string
	failing map[string]string // "server/flavor/case" -> reason
	// interruptAfter sends the process SIGINT (Ctrl-C) once this many cells ran (0: never).
	interruptAfter int
	// held: After holds every failed cell against the others and says so in its reason, as
	// gRPC-web's oracle does (Reverdict does the same for what reads the journal later).
	held bool
	mu   *sync.Mutex
	ran  map[string]int
}

func (*toySuite) Info() suite.Info {
	return suite.Info{Name: "toy", Make: "toy", Summary: "a toy suite", Roles: []string{"client", "server"}}
}

func (t *toySuite) Flags(fs *flag.FlagSet, _ string) {
	t.servers = fs.String("servers", "", "comma-separated servers")
}

func (t *toySuite) Load(suite.Input) (suite.Matrix, error) {
	servers, err := matrix.Select([]string{"s1", "s2", "s3"}, *t.servers, func(s string) string { return s }, "server")
	if err != nil {
		return nil, suite.BadInput{Msg: "--servers: " + err.Error()}
	}
	return &toyMatrix{t: t, servers: servers}, nil
}

type toyMatrix struct {
	t       *toySuite
	servers []string
}

func (m *toyMatrix) Describe() string { return fmt.Sprintf("%d servers", len(m.servers)) }

func (m *toyMatrix) Cells() []matrix.PlanCell {
	var out []matrix.PlanCell
	for _, s := range m.servers {
		for _, f := range []string{"plain", "fancy"} {
			for _, c := range []string{"alpha", "beta", "gamma"} {
				out = append(out, matrix.PlanCell{Cell: matrix.Cell{Server: s, Client: "toyclient", Case: c, Abbr: strings.ToUpper(c[:1]),
					Axes: map[string]string{"flavor": f}}, TypicalSeconds: 1, Skip: c == "gamma" && f == "fancy", Why: "fancy has no gamma"})
			}
		}
	}
	return out
}

func (m *toyMatrix) Universe() matrix.Universe {
	return matrix.Universe{matrix.AxisServer: {"s1", "s2", "s3"}, matrix.AxisClient: {"toyclient"},
		matrix.AxisCase: {"alpha", "beta", "gamma"}, "flavor": {"plain", "fancy"}}
}
func (m *toyMatrix) OwnData() bool                                           { return true }
func (m *toyMatrix) Images() []string                                        { return nil }
func (m *toyMatrix) Columns() []matrix.Column                                { return nil }
func (m *toyMatrix) Before(context.Context, *suite.Run, []matrix.Cell) error { return nil }
func (m *toyMatrix) Layout(context.Context, *suite.Run, matrix.Cell, uint64, string) (lifecycle.Layout, error) {
	return lifecycle.Layout{}, fmt.Errorf("in-process")
}
func (m *toyMatrix) Verdict(context.Context, *suite.Run, matrix.Cell, lifecycle.Evidence) matrix.Result {
	return matrix.Result{}
}
func (m *toyMatrix) After(_ context.Context, _ *suite.Run, rs []matrix.Result) ([]matrix.Result, error) {
	return m.t.Reverdict(rs), nil
}

// Reverdict implements suite.Reverdicter.
func (t *toySuite) Reverdict(rs []matrix.Result) []matrix.Result {
	out := append([]matrix.Result(nil), rs...)
	for i := range out {
		if t.held && out[i].Result == matrix.Failed {
			out[i].Reason += " (held against the others)"
		}
	}
	return out
}
func (m *toyMatrix) Summary(*suite.Run, []matrix.Result) any { return &struct{ suite.RunTimes }{} }
func (m *toyMatrix) PrintTable(w io.Writer, _ *suite.Run, rs []matrix.Result) {
	var rows []string
	for _, c := range m.Cells() {
		if len(rows) == 0 || rows[len(rows)-1] != c.Slot() {
			rows = append(rows, c.Slot())
		}
	}
	matrix.PrintGrid(w, []matrix.Column{{Name: "alpha", Abbr: "A"}, {Name: "beta", Abbr: "B"}, {Name: "gamma", Abbr: "G"}}, rows, rs)
}

// RunOnce is the toy's cell: it writes a file in its folder and looks its verdict up.
func (m *toyMatrix) RunOnce(_ context.Context, _ *suite.Run, c matrix.Cell, seed uint64, dir string) matrix.Result {
	k := c.Server + "/" + c.Get("flavor") + "/" + c.Case
	m.t.mu.Lock()
	m.t.ran[k]++
	if len(m.t.ran) == m.t.interruptAfter {
		_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
	}
	m.t.mu.Unlock()
	_ = os.WriteFile(filepath.Join(dir, "evidence.txt"), []byte(fmt.Sprint(seed)), 0o644)
	res := matrix.Result{Result: matrix.Succeeded, Rerun: "wirelab toy --servers " + c.Server}
	switch why := m.t.failing[k]; {
	case why == "127":
		res.Result, res.Reason = matrix.UnsupportedAtRunTime, "the server answered 127"
	case strings.HasPrefix(why, "flaky"): // passes every other repetition (seeds alternate)
		if seed%2 == 0 {
			res.Result, res.Reason = matrix.Failed, why
		}
	case why != "":
		res.Result, res.Reason = matrix.Failed, why
	}
	if c.Case == "alpha" { // alpha's client runs three cases of its own: sub-cases
		for _, sub := range []string{"x1", "x2", "x3"} {
			r := matrix.Result{Cell: matrix.Cell{Sub: sub}, Result: matrix.Succeeded}
			if why := m.t.failing[k+"#"+sub]; why != "" {
				r.Result, r.Reason, res.Result, res.Reason, res.BySubs = matrix.Failed, why, matrix.Failed, "sub-cases failed", true
			}
			res.Subs = append(res.Subs, r)
		}
	}
	return res
}

func newToy(failing map[string]string) *toySuite {
	return &toySuite{failing: failing, mu: &sync.Mutex{}, ran: map[string]int{}}
}

func toyWL(t *testing.T, toy *toySuite, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := MainWith(context.Background(), func() []suite.Suite { return []suite.Suite{toy} }, args, &out, &errb)
	return code, out.String() + errb.String()
}

// The generic path gives a registered suite its plan, journal, resume, shards, merge, baseline
// and JUnit, with its own axis in the cell keys, folders and JUnit names.
func TestToySuiteGetsTheGenericPath(t *testing.T) {
	// The manifests are held to the toy registry's schema: roles in the toy suite only.
	root := fakeRepo(t, map[string]string{"alpha": "name: alpha\nimplementation: {name: impl, version: '2.0'}\nroles: {toy: [server]}\n"})
	must(t, os.MkdirAll(filepath.Join(root, "images", "sim"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "images", "sim", "profiles.yml"), []byte("profiles:\n  ideal: {}\n"), 0o644))
	out := t.TempDir()

	// --plan: the plan, nothing run.
	toy := newToy(nil)
	code, log := toyWL(t, toy, "toy", "--out", out, "--plan")
	if code != 0 || !strings.Contains(log, "plan: 18 cells: 15 to run, 3 unsupported") || len(toy.ran) != 0 {
		t.Fatalf("plan: %d %s (ran %v)", code, log, toy.ran)
	}

	// A whole run: every runnable cell once, journaled with its axes; JUnit names carry them.
	toy = newToy(map[string]string{"s2/fancy/beta": "beta breaks on fancy"})
	code, log = toyWL(t, toy, "toy", "--out", out, "--run-id", "whole", "--seed", "5")
	if code != ExitFailed || len(toy.ran) != 15 || !strings.Contains(log, "1 cells failed") {
		t.Fatalf("whole run: %d (ran %d) %s", code, len(toy.ran), log)
	}
	whole := filepath.Join(out, "toy", "whole")
	results, err := matrix.ReadJournal(filepath.Join(whole, "results.jsonl"))
	if err != nil || len(results) != 18+6*3 { // 18 cells, alpha's three sub-cases in each of its 6
		t.Fatalf("journal: %d results, %v", len(results), err)
	}
	for _, r := range results {
		if r.Get("flavor") == "" || !strings.HasPrefix(r.Dir, filepath.Join(whole, r.Server+"@"+r.Get("flavor")+"_toyclient")) {
			t.Errorf("result without its axis or folder: %+v", r)
		}
	}
	if _, err := os.Stat(filepath.Join(whole, "s1@plain_toyclient", "alpha", "evidence.txt")); err != nil {
		t.Errorf("cell folder: %v", err)
	}
	var junit struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	data, err := os.ReadFile(filepath.Join(whole, "junit.xml"))
	must(t, err)
	must(t, xml.Unmarshal(data, &junit))
	if len(junit.Suites) != 7 || junit.Suites[0].Name != "s1@fancy_toyclient" || junit.Suites[6].Name != "run" {
		t.Errorf("junit suites: %s", data)
	}
	var sum map[string]any
	must(t, json.Unmarshal(mustRead(t, filepath.Join(whole, "result.json")), &sum))
	if sum["complete"] != true || sum["planned"] != 18.0 || sum["ran"] != 18.0 {
		t.Errorf("result.json of a whole run: %v", sum)
	}

	// Interrupted after 4 cells (Ctrl-C): exit 130, and result.json, JUnit and the last line say
	// how much of the plan ran.
	toy = newToy(nil)
	toy.interruptAfter = 4
	code, log = toyWL(t, toy, "toy", "--out", out, "--run-id", "stopped", "--seed", "5", "-j", "1")
	stopped := filepath.Join(out, "toy", "stopped")
	sum = nil
	must(t, json.Unmarshal(mustRead(t, filepath.Join(stopped, "result.json")), &sum))
	if code != ExitInterrupted || sum["complete"] != false || sum["ran"].(float64) >= 18 || !strings.Contains(log, "INCOMPLETE: ran") ||
		!strings.Contains(string(mustRead(t, filepath.Join(stopped, "junit.xml"))), `<failure message="INCOMPLETE: ran`) {
		t.Errorf("interrupted run: exit %d, result.json %v\n%s", code, sum, log)
	}

	// Resume: an interrupted run (its journal cut to 4 cells) runs only the 14 others.
	cut := filepath.Join(out, "toy", "cut")
	must(t, os.MkdirAll(cut, 0o755))
	lines := strings.SplitAfter(string(mustRead(t, filepath.Join(whole, "results.jsonl"))), "\n")
	must(t, os.WriteFile(filepath.Join(cut, "results.jsonl"), []byte(strings.Join(lines[:4], "")), 0o644))
	toy = newToy(nil)
	if code, log = toyWL(t, toy, "toy", "--out", out, "--run-id", "cut", "--seed", "5", "--resume"); code != 0 {
		t.Fatalf("resume: %d %s", code, log)
	}
	if len(toy.ran) != 15-countCells(lines[:4])+countSkipped(lines[:4]) {
		t.Errorf("resume ran %d cells: %v", len(toy.ran), toy.ran)
	}

	// Shards: two parts run every cell once between them, and their merge is the whole run.
	failing := map[string]string{"s2/fancy/beta": "beta breaks on fancy"}
	var shardDirs []string
	total := 0
	for i := 1; i <= 2; i++ {
		toy = newToy(failing)
		id := fmt.Sprintf("part%d", i)
		toyWL(t, toy, "toy", "--out", out, "--run-id", id, "--seed", "5", "--shard", fmt.Sprintf("%d/2", i))
		total += len(toy.ran)
		shardDirs = append(shardDirs, filepath.Join(out, "toy", id))
	}
	if total != 15 {
		t.Errorf("the shards ran %d cells, want 15", total)
	}
	toy = newToy(nil)
	code, log = toyWL(t, toy, append([]string{"merge", "--out", out, "--run-id", "merged"}, shardDirs...)...)
	if code != ExitFailed || len(toy.ran) != 0 || !strings.Contains(log, "1 cells failed") {
		t.Fatalf("merge: %d (ran %d) %s", code, len(toy.ran), log)
	}
	merged, err := matrix.ReadJournal(filepath.Join(out, "toy", "merged", "results.jsonl"))
	if err != nil || len(merged) != 18+6*3 {
		t.Fatalf("merged journal: %d, %v", len(merged), err)
	}

	// Baseline: the failed cell, expected by a glob on the suite's own axis, exits 0; another
	// failure is a regression (exit 1); an entry naming an axis the suite lacks is bad input.
	expected := filepath.Join(t.TempDir(), "expected.yml")
	must(t, os.WriteFile(expected, []byte("expected:\n  - {server: s2, client: '*', case: beta, flavor: 'fan*', status: fail, signature: 'beta breaks*', reason: known}\n"), 0o644))
	if code, log = toyWL(t, newToy(failing), "toy", "--out", out, "--seed", "5", "--baseline", expected); code != 0 ||
		!strings.Contains(log, "1 failed as expected, 0 regressions") {
		t.Errorf("expected failure: %d %s", code, log)
	}
	otherWay := map[string]string{"s2/fancy/beta": "a crash"} // the expected cell, failing another way
	if code, log = toyWL(t, newToy(otherWay), "toy", "--out", out, "--seed", "5", "--baseline", expected); code != ExitFailed ||
		!strings.Contains(log, `REGRESSION: s2@fancy_toyclient/beta: expected "beta breaks*", got "a crash"`) {
		t.Errorf("another signature: %d %s", code, log)
	}
	worse := map[string]string{"s2/fancy/beta": "beta breaks on fancy", "s1/plain/alpha": "new"}
	if code, log = toyWL(t, newToy(worse), "toy", "--out", out, "--seed", "5", "--baseline", expected); code != ExitFailed ||
		!strings.Contains(log, "REGRESSION: s1@plain_toyclient/alpha") {
		t.Errorf("regression: %d %s", code, log)
	}
	must(t, os.WriteFile(expected, []byte("expected:\n  - {server: s2, client: '*', case: beta, colour: red, status: fail, signature: '*', reason: known}\n"), 0o644))
	if code, log = toyWL(t, newToy(failing), "toy", "--out", out, "--baseline", expected); code != ExitBadInput ||
		!strings.Contains(log, `expected[0].colour: this suite has no axis "colour"`) {
		t.Errorf("unknown axis: %d %s", code, log)
	}
	if code, log = toyWL(t, newToy(nil), "baseline", "--suite", "toy", "--run-id", "whole", "--out", out, "--file", expected); code != 0 ||
		!strings.Contains(string(mustRead(t, expected)), "flavor: fancy") {
		t.Errorf("make baseline from the run: %d %s\n%s", code, log, mustRead(t, expected))
	}
}

// The gate through the CLI, for each way #27 names: one more failing sub-case than the baseline
// expects, a cell unsupported at run time, a flaky cell whose rate falls — each exit 1; and the
// expected state of each — exit 0.
func TestToySuiteGateFailsEachRegression(t *testing.T) {
	root := fakeRepo(t, map[string]string{"alpha": "name: alpha\nimplementation: {name: impl, version: '2.0'}\nroles: {toy: [server]}\n"})
	must(t, os.MkdirAll(filepath.Join(root, "images", "sim"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "images", "sim", "profiles.yml"), []byte("profiles:\n  ideal: {}\n"), 0o644))
	out := t.TempDir()
	expected := filepath.Join(t.TempDir(), "expected.yml")
	must(t, os.WriteFile(expected, []byte(`expected:
  - {server: s1, client: toyclient, case: alpha, flavor: plain, sub: x1, status: fail, signature: 'x1 broken', reason: known}
  - {server: s2, client: toyclient, case: beta, flavor: plain, status: unsupported, signature: '*127*', reason: no beta on s2}
  - {server: s3, client: toyclient, case: beta, flavor: plain, status: flaky, pass_rate: 0.5, runs: 10, reason: races}
`), 0o644))
	gate := func(failing map[string]string, extra ...string) (int, string) {
		args := append([]string{"toy", "--out", out, "--seed", "4", "--baseline", expected}, extra...)
		return toyWL(t, newToy(failing), args...)
	}
	known := map[string]string{"s1/plain/alpha#x1": "x1 broken", "s2/plain/beta": "127", "s3/plain/beta": "flaky: races"}
	if code, log := gate(known); code != 0 {
		t.Fatalf("the known state: exit %d\n%s", code, log)
	}
	for name, change := range map[string][2]string{
		"one more sub-case":        {"s1/plain/alpha#x2", "x2 broken"},
		"unsupported at run time":  {"s1/fancy/beta", "127"},
		"a cell failing otherwise": {"s2/plain/beta", "crash"},
	} {
		failing := map[string]string{change[0]: change[1]}
		for k, v := range known {
			if k != change[0] {
				failing[k] = v
			}
		}
		if code, log := gate(failing); code != ExitFailed || !strings.Contains(log, "REGRESSION") {
			t.Errorf("%s: exit %d, want 1\n%s", name, code, log)
		}
	}
	// The flaky cell over 10 repetitions: half pass (its rate) is fine, none passing is a regression.
	if code, log := gate(known, "--repeat", "10"); code != 0 {
		t.Errorf("the flaky cell at its rate: exit %d\n%s", code, log)
	}
	always := map[string]string{"s1/plain/alpha#x1": "x1 broken", "s2/plain/beta": "127", "s3/plain/beta": "always broken now"}
	if code, log := gate(always, "--repeat", "10"); code != ExitFailed || !strings.Contains(log, "below its measured rate 0.50 over 10 runs") {
		t.Errorf("the flaky cell's rate fell to 0/10: exit %d, want 1\n%s", code, log)
	}
}

// countCells counts the whole cells among journal lines (sub-case rows follow their cell's).
func countCells(lines []string) int {
	n := 0
	for _, l := range lines {
		if !strings.Contains(l, `"sub":`) {
			n++
		}
	}
	return n
}

// countSkipped counts the unsupported results among journal lines: they never ran.
func countSkipped(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, `"result":"unsupported"`) {
			n++
		}
	}
	return n
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// make baseline reads a journal as the run judged it: a suite whose After changes verdicts
// (gRPC-web's oracle) gets a baseline its own run matches.
func TestBaselineSeesWhatTheRunJudged(t *testing.T) {
	root := fakeRepo(t, map[string]string{"alpha": "name: alpha\nimplementation: {name: impl, version: '2.0'}\nroles: {toy: [server]}\n"})
	must(t, os.MkdirAll(filepath.Join(root, "images", "sim"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "images", "sim", "profiles.yml"), []byte("profiles:\n  ideal: {}\n"), 0o644))
	out := t.TempDir()
	toy := func() *toySuite {
		ts := newToy(map[string]string{"s1/plain/beta": "beta breaks"})
		ts.held = true
		return ts
	}
	if code, log := toyWL(t, toy(), "toy", "--out", out, "--run-id", "held", "--seed", "3", "--baseline", "none"); code != ExitFailed {
		t.Fatalf("run: %d %s", code, log)
	}
	expected := filepath.Join(t.TempDir(), "expected.yml")
	if code, log := toyWL(t, toy(), "baseline", "--suite", "toy", "--run-id", "held", "--out", out, "--file", expected); code != 0 {
		t.Fatalf("baseline: %d %s", code, log)
	}
	if code, log := toyWL(t, toy(), "toy", "--out", out, "--seed", "3", "--baseline", expected); code != 0 {
		t.Errorf("the run again against the baseline made from it: %d %s\n%s", code, log, mustRead(t, expected))
	}
}
