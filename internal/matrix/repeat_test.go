package matrix

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func reps(results ...string) []Repetition {
	var out []Repetition
	for i, r := range results {
		x := Repetition{Seed: RepeatSeed(7, i+1), Result: r}
		if r != Succeeded {
			x.Reason = "why " + string(rune('a'+i))
		}
		out = append(out, x)
	}
	return out
}

func TestAggregateMajorityTieFlakyUnsupported(t *testing.T) {
	for _, tc := range []struct {
		name         string
		in           []Repetition
		result       string
		passes, runs int
		flaky        bool
		reason       string
	}{
		{"all pass", reps(Succeeded, Succeeded, Succeeded), Succeeded, 3, 3, false, ""},
		{"majority passes", reps(Succeeded, Failed, Succeeded), Succeeded, 2, 3, true, "2/3 passed (flaky); r2: why b"},
		{"majority fails", reps(Failed, Succeeded, Failed), Failed, 1, 3, true, "1/3 passed (flaky); r1: why a"},
		{"tie is failed", reps(Succeeded, Failed, Failed, Succeeded), Failed, 2, 4, true, "2/4 passed (flaky); r2: why b"},
		{"all fail", reps(Failed, Failed), Failed, 0, 2, false, "0/2 passed; r1: why a"},
		{"unsupported wins", reps(Succeeded, Unsupported), Unsupported, 1, 2, false, "r2: why b"},
	} {
		result, reason, rep := aggregate(tc.in)
		if result != tc.result || rep.Passes != tc.passes || rep.Runs != tc.runs || rep.Flaky != tc.flaky || reason != tc.reason || len(rep.Of) != len(tc.in) {
			t.Errorf("%s: got %s %q %d/%d flaky=%v", tc.name, result, reason, rep.Passes, rep.Runs, rep.Flaky)
		}
	}
}

func TestRepeatSeedDeterministicAndDistinct(t *testing.T) {
	for _, seed := range []uint64{0, 1, 7, 31, 1<<63 - 1} {
		if RepeatSeed(seed, 1) != seed {
			t.Errorf("seed %d: repetition 1 must be the run seed itself, got %d", seed, RepeatSeed(seed, 1))
		}
		seen := map[uint64]int{}
		for i := 1; i <= MaxRepeat; i++ {
			s := RepeatSeed(seed, i)
			if s != RepeatSeed(seed, i) {
				t.Fatalf("seed %d repetition %d: not deterministic", seed, i)
			}
			if s >= 1<<63 {
				t.Errorf("seed %d repetition %d: %d not below 2^63", seed, i, s)
			}
			if j, dup := seen[s]; dup {
				t.Fatalf("seed %d: repetitions %d and %d share seed %d", seed, j, i, s)
			}
			seen[s] = i
		}
	}
	if RepeatSeed(7, 2) == RepeatSeed(8, 2) {
		t.Error("different run seeds give the same repetition seed")
	}
}

// A cell run once keeps the results.jsonl line it always had; a repeated one carries k/N.
func TestRepeatJSONOnlyWhenRepeated(t *testing.T) {
	once := Result{Cell: Cell{Server: "s", Client: "c", Case: "handshake", Abbr: "H"}, Result: Succeeded, Seconds: 9.5, Dir: "d", Rerun: "x"}
	b, _ := json.Marshal(once)
	want := `{"server":"s","client":"c","case":"handshake","abbr":"H","result":"succeeded","seconds":9.5,"dir":"d","rerun":"x"}`
	if string(b) != want {
		t.Fatalf("run once:\n got %s\nwant %s", b, want)
	}
	result, reason, rep := aggregate(reps(Failed, Failed, Succeeded))
	rep.Of[0].Dir = "d/r1"
	many := once
	many.Result, many.Reason, many.Repeat = result, reason, &rep
	b, _ = json.Marshal(many)
	for _, s := range []string{`"result":"failed"`, `"repeat":{"passes":1,"runs":3,"flaky":true,"repetitions":[`,
		`{"seed":7,"result":"failed","reason":"why a","seconds":0,"dir":"d/r1"}`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("repeated: %s lacks %s", b, s)
		}
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil || back.PassRate() != "1/3" || !back.Flaky() {
		t.Fatalf("round trip: %v %+v", err, back)
	}
	none := Result{Repeat: &Repeats{Runs: 2}}
	if b, _ := json.Marshal(none); !strings.Contains(string(b), `"passes":0,"runs":2`) {
		t.Errorf("0 passes must be written, not omitted: %s", b)
	}
}

func TestJUnitCarriesPassRate(t *testing.T) {
	p := filepath.Join(t.TempDir(), "junit.xml")
	_, okReason, okRep := aggregate(reps(Succeeded, Failed, Succeeded))
	_, badReason, badRep := aggregate(reps(Failed, Succeeded, Failed))
	err := WriteJUnit(p, "quic", Completeness{}, []Result{
		{Cell: Cell{Server: "s", Client: "c", Case: "handshake"}, Result: Succeeded},
		{Cell: Cell{Server: "s", Client: "c", Case: "retry"}, Result: Succeeded, Reason: okReason, Repeat: &okRep},
		{Cell: Cell{Server: "s", Client: "c", Case: "transfer"}, Result: Failed, Reason: badReason, Repeat: &badRep},
	})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name       string `xml:"name,attr"`
				Properties []struct {
					Name  string `xml:"name,attr"`
					Value string `xml:"value,attr"`
				} `xml:"properties>property"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
				SystemOut string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	data := mustRead(t, p)
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	cs := doc.Suites[0].Cases
	if doc.Suites[0].Failures != 1 || len(cs) != 3 {
		t.Fatalf("%s", data)
	}
	if len(cs[0].Properties) != 0 || strings.Count(string(data), "<properties>") != 2 {
		t.Errorf("a cell run once gets no properties: %s", data)
	}
	props := map[string]string{}
	for _, pr := range cs[1].Properties {
		props[pr.Name] = pr.Value
	}
	if props["passed"] != "2/3" || props["flaky"] != "true" || props["r2"] != "failed (seed "+itoa(RepeatSeed(7, 2))+")" ||
		cs[1].Failure != nil || cs[1].SystemOut != "2/3 passed (flaky); r2: why b" {
		t.Errorf("flaky pass: %+v", cs[1])
	}
	if cs[2].Failure == nil || cs[2].Failure.Message != "1/3 passed (flaky); r1: why a" {
		t.Errorf("flaky failure: %+v", cs[2])
	}
}

func itoa(u uint64) string { b, _ := json.Marshal(u); return string(b) }

func TestProgressAndMatrixMarkFlakyCells(t *testing.T) {
	var b strings.Builder
	p := newProgress(&b, 2, 0)
	result, reason, rep := aggregate(reps(Succeeded, Failed, Succeeded))
	p.record(Result{Cell: Cell{Server: "s", Client: "c", Case: "handshake"}, Result: Succeeded})
	if strings.Contains(b.String(), "flaky") {
		t.Fatalf("no flaky count before a flaky cell: %q", b.String())
	}
	flaky := Result{Cell: Cell{Server: "s", Client: "c", Case: "retry", Abbr: "S"}, Result: result, Reason: reason, Repeat: &rep}
	p.record(flaky)
	if !strings.Contains(b.String(), "succeeded 2/3 flaky") || !strings.Contains(b.String(), "1 flaky, ETA") ||
		!strings.Contains(b.String(), "\n      2/3 passed (flaky); r2: why b") {
		t.Fatalf("progress: %q", b.String())
	}
	var m strings.Builder
	cases := []Column{{Name: "handshake", Abbr: "H"}, {Name: "retry", Abbr: "S"}}
	PrintTable(&m, cases, []string{"c"}, []string{"s"}, []Result{{Cell: Cell{Server: "s", Client: "c", Case: "handshake"}, Result: Succeeded}, flaky})
	if !strings.Contains(m.String(), "✓ S ~2/3") || strings.Contains(m.String(), "✓ H ~") || !strings.Contains(m.String(), "~k/N = flaky") {
		t.Fatalf("matrix: %s", m.String())
	}
	m.Reset()
	PrintTable(&m, cases, []string{"c"}, []string{"s"}, []Result{{Cell: Cell{Server: "s", Client: "c", Case: "handshake"}, Result: Succeeded}})
	if strings.Contains(m.String(), "~") {
		t.Fatalf("a matrix without repeats has no flaky legend: %s", m.String())
	}
	if FlakyCount([]Result{flaky, {Result: Failed}}) != 1 {
		t.Fatal("FlakyCount")
	}
}

// The three repetition modes: all-must-pass stops at the first repetition that does not pass,
// record-every runs them all and the first failure decides, majority counts.
func TestRepeatModes(t *testing.T) {
	outcomes := []string{Succeeded, Failed, Succeeded}
	run := func(mode RepeatMode) (Result, int) {
		ran := 0
		res := Repeat(context.Background(), Policy{Mode: mode, N: 3}, 1, t.TempDir(), Result{}, func(_ context.Context, _ uint64, _ string) Result {
			ran++
			return Result{Result: outcomes[ran-1], Reason: fmt.Sprintf("why %d", ran), Values: []float64{float64(ran)}}
		})
		return res, ran
	}
	if res, ran := run(AllMustPass); ran != 2 || res.Result != Failed || res.Reason != "r2: why 2" || len(res.Values) != 2 || res.Repeat.Runs != 2 {
		t.Errorf("all-must-pass: ran %d, %+v", ran, res)
	}
	if res, ran := run(RecordEvery); ran != 3 || res.Result != Failed || res.Reason != "r2: why 2" || len(res.Values) != 3 || res.Repeat.Passes != 2 {
		t.Errorf("record-every: ran %d, %+v", ran, res)
	}
	if res, ran := run(Majority); ran != 3 || res.Result != Succeeded || !res.Flaky() {
		t.Errorf("majority: ran %d, %+v", ran, res)
	}
	outcomes = []string{Succeeded, Succeeded, Succeeded}
	if res, _ := run(RecordEvery); res.Result != Succeeded || res.Reason != "" {
		t.Errorf("record-every, all passed: %+v", res)
	}
}
