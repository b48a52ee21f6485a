package matrix

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

func cells(names ...string) []Cell {
	var out []Cell
	for _, n := range names {
		out = append(out, Cell{Server: "s", Client: "c", Case: n, Abbr: strings.ToUpper(n[:1])})
	}
	return out
}

// Done cells are skipped, the rest run -j at a time and land in the journal as they finish.
func TestRunSkipsDoneCellsAndJournalsTheRest(t *testing.T) {
	dir := t.TempDir()
	j, _, err := OpenJournal(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	r := &Pool{Dir: dir, Jobs: 2, Journal: j, Progress: &b}
	done := []Result{{Cell: Cell{Server: "s", Client: "c", Case: "a"}, Result: Succeeded}}
	var ran atomic.Int32
	results, err := r.Run(context.Background(), cells("a", "b", "c"), done, func(ctx context.Context, c Cell) Result {
		ran.Add(1)
		verdict := Succeeded
		if c.Case == "c" {
			verdict = Failed
		}
		return Result{Cell: Cell{Server: c.Server, Client: c.Client, Case: c.Case, Abbr: c.Abbr}, Result: verdict, Reason: "because"}
	})
	j.Close()
	if err != nil || ran.Load() != 2 || len(results) != 3 {
		t.Fatalf("ran %d, %d results, %v", ran.Load(), len(results), err)
	}
	journaled, _ := ReadResults(filepath.Join(dir, "results.jsonl"))
	if len(journaled) != 2 {
		t.Fatalf("journal holds the cells this run ran: %+v", journaled)
	}
	if c := Count(results); c.Passed != 2 || c.Failed != 1 || c.Unsupported != 0 {
		t.Fatalf("counts %+v", c)
	}
	if !strings.Contains(b.String(), "resuming: 1 cells already done, 2 to run") || !strings.Contains(b.String(), "[2/2]") {
		t.Fatalf("progress: %q", b.String())
	}
}

// A cell whose run was interrupted has no verdict: nothing is journaled for it.
func TestRunDropsInterruptedCells(t *testing.T) {
	dir := t.TempDir()
	j, _, _ := OpenJournal(filepath.Join(dir, "results.jsonl"))
	defer j.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := &Pool{Dir: dir, Jobs: 1, Journal: j, Progress: &strings.Builder{}}
	results, err := r.Run(ctx, cells("a", "b"), nil, func(ctx context.Context, c Cell) Result {
		cancel() // Ctrl-C while the first cell runs
		return Result{Cell: Cell{Server: c.Server, Client: c.Client, Case: c.Case}, Result: Failed, Reason: "interrupted"}
	})
	if err != nil || len(results) != 0 {
		t.Fatalf("%+v %v", results, err)
	}
	if journaled, _ := ReadResults(filepath.Join(dir, "results.jsonl")); len(journaled) != 0 {
		t.Fatalf("journaled an interrupted cell: %+v", journaled)
	}
}

// Repeat runs once in the cell's folder, or N times in r<i>/ with their own seeds.
func TestRepeatLayoutAndSeeds(t *testing.T) {
	dir := t.TempDir()
	var seen []string
	once := func(ctx context.Context, seed uint64, d string) Result {
		seen = append(seen, filepath.Base(d))
		verdict := Succeeded
		if seed != 5 {
			verdict = Failed
		}
		return Result{Result: verdict, Reason: "no", Rerun: "wirelab x --seed 5", Values: []float64{42}, Details: "42 Mbit/s"}
	}
	res := Repeat(context.Background(), Policy{Mode: Majority, N: 1}, 5, dir, Result{Cell: Cell{Case: "k"}}, once)
	if res.Result != Succeeded || res.Repeat != nil || seen[0] != filepath.Base(dir) || res.Rerun != "wirelab x --seed 5" ||
		len(res.Values) != 1 || res.Details != "42 Mbit/s" { // a single run keeps its measurement
		t.Fatalf("once: %+v %v", res, seen)
	}
	seen = nil
	res = Repeat(context.Background(), Policy{Mode: Majority, N: 3}, 5, dir, Result{Cell: Cell{Case: "k"}}, once)
	if res.Result != Failed || res.PassRate() != "1/3" || strings.Join(seen, ",") != "r1,r2,r3" || res.Rerun != "wirelab x --seed 5 --repeat 3" {
		t.Fatalf("three: %+v %v", res, seen)
	}
	if res.Repeat.Of[1].Seed != RepeatSeed(5, 2) {
		t.Fatalf("seeds: %+v", res.Repeat.Of)
	}
}

// The grid marks each server x case cell, a flaky one with its pass rate, and lists the cases.
func TestPrintGrid(t *testing.T) {
	var b strings.Builder
	flaky := Result{Cell: Cell{Server: "nginx", Case: "b"}, Result: Succeeded, Repeat: &Repeats{Passes: 2, Runs: 3, Flaky: true}}
	PrintGrid(&b, []Column{{"a", "A"}, {"b", "B"}, {"c", "C"}}, []string{"nginx", "caddy"},
		[]Result{{Cell: Cell{Server: "nginx", Case: "a"}, Result: Failed}, flaky, {Cell: Cell{Server: "caddy", Case: "c"}, Result: Unsupported}})
	for _, want := range []string{"nginx        ✕            ✓ ~2/3       .", "caddy        .            .            -", "  B            b"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}
