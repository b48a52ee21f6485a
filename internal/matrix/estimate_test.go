package matrix

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// c x s runs all three cases; c x nginx only handshake (its manifest declares no other).
var estCells = []PlanCell{
	{Cell: Cell{Server: "s", Client: "c", Case: "handshake"}, TypicalSeconds: 10},
	{Cell: Cell{Server: "s", Client: "c", Case: "retry"}, TypicalSeconds: 20},
	{Cell: Cell{Server: "s", Client: "c", Case: "goodput"}, Policy: Policy{Mode: AllMustPass, N: 1}, TypicalSeconds: 100},
	{Cell: Cell{Server: "nginx", Client: "c", Case: "handshake"}, TypicalSeconds: 10},
	{Cell: Cell{Server: "nginx", Client: "c", Case: "retry"}, Skip: true, TypicalSeconds: 20},
	{Cell: Cell{Server: "nginx", Client: "c", Case: "goodput"}, Skip: true, Policy: Policy{Mode: AllMustPass, N: 1}, TypicalSeconds: 100},
}

func on(server string, i int) PlanCell { c := estCells[i]; c.Server = server; return c }

// No history: the cases' typical times; the cells a manifest rules out cost nothing.
func TestEstimateWithoutHistoryUsesTypical(t *testing.T) {
	p := EstimatePlan(estCells, nil, 1, 1, History{})
	// c x s: 10 + 20 + 100; c x nginx: handshake 10 (retry, goodput undeclared)
	if p.Cells != 6 || p.Runnable != 4 || p.Unsupported != 2 || p.FromHistory != 0 || p.Measuring != 1 || p.Wall != 140*time.Second {
		t.Fatalf("%+v", p)
	}
	if s, timed := (History{}).runSeconds(PlanCell{Cell: Cell{Client: "c", Server: "s", Case: "x"}}); s != defaultCellSeconds || timed {
		t.Fatalf("no typical_seconds: %v %v", s, timed)
	}
}

// The same cell's earlier times beat the case's other pairs, which beat typical_seconds.
func TestEstimateHistoryBeatsTypical(t *testing.T) {
	var h History
	h.Add(Result{Cell: Cell{Client: "c", Server: "s", Case: "handshake"}, Result: Succeeded, Seconds: 4})
	h.Add(Result{Cell: Cell{Client: "c", Server: "s", Case: "handshake"}, Result: Failed, Seconds: 6})
	h.Add(Result{Cell: Cell{Client: "c", Server: "s", Case: "handshake"}, Result: Succeeded, Seconds: 50})
	h.Add(Result{Cell: Cell{Client: "x", Server: "y", Case: "handshake"}, Result: Succeeded, Seconds: 1000})
	h.Add(Result{Cell: Cell{Client: "x", Server: "y", Case: "retry"}, Result: Succeeded, Seconds: 3})
	h.Add(Result{Cell: Cell{Client: "x", Server: "z", Case: "retry"}, Result: Unsupported, Seconds: 1}) // not a time for retry
	h.Add(Result{Cell: Cell{Client: "x", Server: "z", Case: "retry"}, Result: Failed, Seconds: 0})      // compliance: no time
	// a repeated cell counts each repetition
	h.Add(Result{Cell: Cell{Client: "x", Server: "w", Case: "retry"}, Result: Succeeded, Seconds: 99, Repeat: &Repeats{Passes: 2, Runs: 2, Of: []Repetition{{Seconds: 5}, {Seconds: 7}}}})
	if s, timed := h.runSeconds(estCells[0]); s != 6 || !timed {
		t.Errorf("same cell: median of 4, 6, 50 = 6, got %v", s)
	}
	if s, timed := h.runSeconds(on("nginx", 1)); s != 5 || !timed {
		t.Errorf("same case: median of 3, 5, 7 = 5, got %v", s)
	}
	if s, timed := h.runSeconds(estCells[2]); s != 100 || timed {
		t.Errorf("no history for goodput: typical 100, got %v", s)
	}
	set := estCells[0]
	set.TypicalSeconds, set.SetSeconds = 1800, true
	if s, timed := h.runSeconds(set); s != 1800 || timed {
		t.Errorf("a cell whose flags set its length (a 30-minute campaign): 1800, not its earlier runs' time; got %v", s)
	}
	p := EstimatePlan(estCells, nil, 1, 1, h)
	// c x s: 6 + 5 + 100; c x nginx handshake: the case's median over 4, 6, 50, 1000 = 28
	if p.FromHistory != 3 || p.Wall != 139*time.Second {
		t.Fatalf("%+v", p)
	}
}

// --repeat multiplies non-measurement cells only; -j divides, but the plan never promises less
// than its longest cell; done cells (--resume) cost nothing.
func TestEstimateRepeatAndParallelism(t *testing.T) {
	p := EstimatePlan(estCells, nil, 3, 2, History{})
	// (3*10 + 3*20 + 100 + 3*10) / 2 = 110
	if p.Wall != 110*time.Second || p.Repeat != 3 || p.Jobs != 2 {
		t.Fatalf("-j 2: %+v", p)
	}
	if p := EstimatePlan(estCells, nil, 3, 4, History{}); p.Wall != 100*time.Second {
		t.Fatalf("-j 4: 220/4 = 55 < the 100 s goodput cell: %+v", p)
	}
	done := []Result{{Cell: Cell{Client: "c", Server: "s", Case: "goodput"}, Result: Succeeded}}
	if p := EstimatePlan(estCells, done, 3, 4, History{}); p.Done != 1 || p.Runnable != 3 || p.Wall != 60*time.Second {
		t.Fatalf("resumed: (30+60+30)/4 = 30 < longest 60: %+v", p)
	}
}

func TestLoadHistoryReadsEarlierRuns(t *testing.T) {
	dir := t.TempDir()
	write := func(run string, rs ...Result) {
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(os.MkdirAll(filepath.Join(dir, run), 0o755))
		var data []byte
		for _, r := range rs {
			b, _ := json.Marshal(r)
			data = append(append(data, b...), '\n')
		}
		must(os.WriteFile(filepath.Join(dir, run, "results.jsonl"), append(data, "{broken"...), 0o644))
	}
	write("a", Result{Cell: Cell{Client: "c", Server: "s", Case: "retry"}, Result: Succeeded, Seconds: 8})
	write("b", Result{Cell: Cell{Client: "c", Server: "s", Case: "retry"}, Result: Succeeded, Seconds: 12})
	if err := os.Symlink("b", filepath.Join(dir, "latest")); err != nil {
		t.Fatal(err)
	}
	h := LoadHistory(dir)
	if s, timed := h.runSeconds(estCells[1]); h.Files != 2 || s != 10 || !timed {
		t.Fatalf("files %d, retry %v", h.Files, s)
	}
	if h := LoadHistory(filepath.Join(dir, "nothing")); h.Files != 0 {
		t.Fatal(h.Files)
	}
}
