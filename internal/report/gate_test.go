package report

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/suite"
)

// generateWith writes the report of out's latest runs of reg's suites with o (Out, Root and Now
// filled in) and returns index.html.
func generateWith(t *testing.T, out string, reg suite.Registry, o Options) string {
	t.Helper()
	sel, err := Select(out, reg, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	o.Out, o.Now = out, time.Now()
	if o.Root == "" {
		o.Root, _ = filepath.Abs("../..")
	}
	if o.Traces == "" {
		o.Traces = TracesNone
	}
	index, err := Generate(context.Background(), sel, o)
	if err != nil {
		t.Fatal(err)
	}
	return read(t, index)
}

// section is a suite's section of the index.
func section(t *testing.T, page, id string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<section id="` + id + `">.*?</section>`).FindString(page)
	if m == "" {
		t.Fatalf("no section %s", id)
	}
	return m
}

// An interrupted run (result.json: complete false) is INCOMPLETE, in red at the top of the page
// and of its section, whatever its cells did; so is a run without result.json. A complete run
// with no regression passes.
func TestIncompleteRunIsNeverGreen(t *testing.T) {
	out := fixture(t)
	page := generateWith(t, out, registry, Options{Baselines: fixtureBaselines(t)})
	quic := section(t, page, SuiteQUIC)
	if !strings.Contains(page, `<li class="gate gate-pass"><a href="#quic">QUIC/HTTP-3 interop</a> <strong>PASS</strong>: no regressions, 1 failure as expected`) ||
		!strings.Contains(quic, "flaky results run once; all 5 planned cells ran</p>") || !strings.Contains(quic, `<div class="gate gate-pass">`) ||
		strings.Contains(page, "INCOMPLETE") {
		t.Fatalf("the complete QUIC run (its one failure expected) does not pass:\n%s", quic)
	}

	sum := filepath.Join(out, SuiteQUIC, newQuic, "result.json")
	must(t, os.WriteFile(sum, []byte(`{"complete": false, "planned": 544, "ran": 14}`), 0o644))
	page = generateWith(t, out, registry, Options{Baselines: fixtureBaselines(t)})
	quic = section(t, page, SuiteQUIC)
	for _, want := range []string{`<li class="gate gate-incomplete"><a href="#quic">QUIC/HTTP-3 interop</a> <strong>INCOMPLETE</strong>: ran 14 of 544 planned cells`,
		`<div class="gate gate-incomplete">`, `<p class="incomplete">INCOMPLETE: ran 14 of 544 planned cells (interrupted, timed out or partially merged).`} {
		if !strings.Contains(page, want) {
			t.Errorf("an incomplete run: the page lacks %q", want)
		}
	}
	if strings.Contains(quic, `gate-pass`) {
		t.Error("an incomplete run shows a pass")
	}

	must(t, os.Remove(sum))
	page = generateWith(t, out, registry, Options{Baselines: fixtureBaselines(t)})
	if !strings.Contains(page, `<p class="incomplete">INCOMPLETE: no result.json: the run has not finished (still running, or stopped before its end); 5 cells journaled.`) {
		t.Errorf("a run without result.json is not incomplete:\n%s", section(t, page, SuiteQUIC))
	}
}

// The gate tells an expected failure from a regression at a glance: different marks in the
// matrix, the regressions listed with why, the stale and untriaged entries listed; a cell's
// sub-cases on its page, each marked. The baseline is the one the run's run.json names; without
// a baseline the same failures are all regressions.
func TestExpectedFailureAndRegressionDiffer(t *testing.T) {
	out := fixture(t)
	root, _ := filepath.Abs("../..")
	must(t, os.WriteFile(filepath.Join(out, SuiteGrpcweb, gwRun, "run.json"),
		[]byte(`{"suite": "grpcweb", "args": ["--baseline=internal/report/testdata/baselines/grpcweb.yml", "--seed=1"]}`), 0o644))
	h2base, _ := filepath.Abs("testdata/baselines/h2.yml")
	page := generateWith(t, out, registry, Options{Root: root, Baselines: map[string]string{SuiteH2: h2base, SuiteQUIC: "none"}})

	gw := section(t, page, SuiteGrpcweb)
	expected := regexp.MustCompile(`<td class="cell failed expected" data-client="grpc-go" data-server="grpc-go@wirelab" data-case="custom_metadata" title="expected by the baseline: `)
	regression := regexp.MustCompile(`<td class="cell failed regression" data-client="grpc-go" data-server="grpc-go@wirelab" data-case="empty_unary" title="REGRESSION: `)
	if !expected.MatchString(gw) || !regression.MatchString(gw) {
		t.Errorf("gRPC-web: the expected failure and the regression are not marked apart:\n%s", gw)
	}
	for _, want := range []string{`The gate: <strong>FAIL</strong>: 1 regression (results the baseline does not expect), 2 failures as expected`,
		"Baseline internal/report/testdata/baselines/grpcweb.yml (the run&#39;s --baseline (run.json)).",
		`grpc-go@wirelab_grpc-go/empty_unary</a>: FATAL: rpc error: code = Unknown (passed direct)</li>`} {
		if !strings.Contains(gw, want) {
			t.Errorf("gRPC-web section lacks %q", want)
		}
	}

	h2 := section(t, page, SuiteH2)
	for _, want := range []string{`<td class="cell failed regression" data-client="h2spec" data-server="go-h2" data-case="h2spec"`,
		`<small class="subs">1/6</small>`, `sub-cases: 1 of 6 passed, 4 failed, 1 unsupported-at-run-time]`,
		`go-h2_h2spec/h2spec#http2/6.5.3/1</a>: Sends a SETTINGS frame without ACK flag: Timeout</li>`,
		`<td class="cell succeeded stale" data-client="h2upload" data-server="go-h2" data-case="upload-fast-h1"`,
		`stale baseline entries: their results passed (1)`, `untriaged baseline entries: raw failures as reasons, findings to write (1)`,
		`<code>server=go-h2 client=h2spec case=h2spec sub=http2/6.9.1/2</code> unsupported: raw: skipped by h2spec`} {
		if !strings.Contains(h2, want) {
			t.Errorf("h2 section lacks %q", want)
		}
	}
	if n := strings.Count(h2, `<td class="cell `); n != 4 { // the run's four cells: its sub-cases are on the cell's page
		t.Errorf("the sub-cases exploded into cells of their own:\n%s", h2)
	}
	cell := read(t, filepath.Join(out, "report", "cells", SuiteH2, h2Run, "go-h2_h2spec__h2spec.html"))
	for _, want := range []string{`<h2 id="subs">Sub-cases</h2>`, "The gate: REGRESSION (through its sub-cases, below).", `1 of 6 passed, 4 failed, 1 unsupported-at-run-time; the cell&#39;s verdict is its sub-cases&#39;`,
		`<tr id="sub-http2_6.5.3_1" class="regression"><td>http2/6.5.3/1</td><td><span class="tag failed">failed</span></td><td><span class="tag failed regression">REGRESSION</span>`,
		`<tr id="sub-http2_4.2_3" class="expected"><td>http2/4.2/3</td><td><span class="tag failed">failed</span></td><td><span class="tag failed expected">expected by the baseline</span>`,
		`<tr id="sub-http2_6.9.1_2" class="expected"><td>http2/6.9.1/2</td><td><span class="tag unsupported-at-run-time">unsupported-at-run-time</span>`,
		`<tr id="sub-http2_5.1_1" class=""><td>http2/5.1/1</td><td><span class="tag succeeded">succeeded</span>`} {
		if !strings.Contains(cell, want) {
			t.Errorf("h2spec cell page lacks %q:\n%s", want, cell)
		}
	}

	// QUIC judged without a baseline (none): its one failure is a regression.
	quic := section(t, page, SuiteQUIC)
	if !strings.Contains(quic, `<td class="cell failed regression" data-client="quic-go" data-server="ngtcp2"`) || !strings.Contains(quic, "No baseline (named by the report&#39;s --baseline: none)") {
		t.Errorf("QUIC without a baseline:\n%s", quic)
	}

	// A run on data files of its own is not judged by the suite's default baseline.
	must(t, os.WriteFile(filepath.Join(out, SuiteGrpcweb, gwRun, "run.json"), []byte(`{"suite": "grpcweb", "args": ["--cases-file=/elsewhere/cases.yml"]}`), 0o644))
	gw = section(t, generateWith(t, out, registry, Options{Root: root}), SuiteGrpcweb)
	if !strings.Contains(gw, "No baseline: the run used data files of its own") || !strings.Contains(gw, `<td class="cell failed regression" data-client="grpc-go" data-server="grpc-go@wirelab" data-case="custom_metadata"`) {
		t.Errorf("a run on its own data files:\n%s", gw)
	}
}

// toySuite is a suite the report has never heard of: registering it is all it takes to get a
// section (the generic view: its name, its axis after @, a table per case).
type toySuite struct{}

func (toySuite) Info() suite.Info {
	return suite.Info{Name: "toy", Make: "toy", Summary: "a toy suite"}
}
func (toySuite) Flags(*flag.FlagSet, string)            {}
func (toySuite) Load(suite.Input) (suite.Matrix, error) { return nil, suite.BadInput{Msg: "a toy"} }

func TestToySuiteGetsASection(t *testing.T) {
	out := t.TempDir()
	dir := filepath.Join(out, "toy", "r1")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(
		`{"server":"s1","client":"toyclient","case":"alpha","abbr":"A","axes":{"flavor":"fancy"},"result":"succeeded","seconds":1,"dir":"x","rerun":"wirelab toy --servers s1"}`+"\n"+
			`{"server":"s2","client":"toyclient","case":"alpha","abbr":"A","axes":{"flavor":"plain"},"result":"failed","reason":"alpha: no","seconds":1,"dir":"x","rerun":"wirelab toy --servers s2"}`+"\n"+
			`{"server":"s2","client":"toyclient","case":"beta","abbr":"B","axes":{"flavor":"plain"},"result":"unsupported-at-run-time","reason":"beta: nothing to judge","seconds":1,"dir":"x","rerun":""}`+"\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "result.json"), []byte(`{"complete": true, "planned": 3, "ran": 3}`), 0o644))
	page := generateWith(t, out, func() []suite.Suite { return []suite.Suite{toySuite{}} }, Options{Root: t.TempDir()})
	toy := section(t, page, "toy")
	for _, want := range []string{`<a href="#toy">toy</a>`, `<li class="gate gate-fail"><a href="#toy">toy</a> <strong>FAIL</strong>: 2 regressions`,
		`<table class="matrix" data-suite="toy" data-case="alpha">`, `<table class="matrix" data-suite="toy" data-case="beta">`,
		`<td class="cell succeeded" data-client="toyclient" data-server="s1@fancy" data-case="alpha"`,
		`<td class="cell failed regression" data-client="toyclient" data-server="s2@plain" data-case="alpha"`,
		`<td class="cell unsupported-at-run-time regression" data-client="toyclient" data-server="s2@plain" data-case="beta"`,
		`unsupported at run time, declared supported: beta: nothing to judge`, "conformance/toy/expected.yml does not exist"} {
		if !strings.Contains(page, want) {
			t.Errorf("the toy suite's section lacks %q:\n%s", want, toy)
		}
	}
	cell := read(t, filepath.Join(out, "report", "cells", "toy", "r1", "s2@plain_toyclient__beta.html"))
	if !strings.Contains(cell, `<pre class="rerun">(the cell wrote no rerun command)</pre>`) || !strings.Contains(cell, "<dt>flavor</dt><dd>plain</dd>") {
		t.Errorf("toy cell page:\n%s", cell)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
