package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Selection is what one report shows: per suite the run, and the older run it is compared with.
type Selection struct {
	Out   string
	Runs  map[string]*Run     // suite -> the run shown
	Diffs map[string]*Run     // suite -> the run its verdicts are compared with (absent: none)
	Bench *Run                // the gRPC-web run whose benchmark is shown (nil: none)
	Notes map[string][]string // suite -> what the dashboard should say about the selection
}

// Select picks the runs: a suite named in runs shows that run, any other suite its latest; the
// comparison is with the suite's run named in diffs, else (unless noDiff) with the run before
// the one shown. Every error is the user's input: a named run that is not there, a
// results.jsonl that is not one.
func Select(out string, runs, diffs []RunRef, noDiff bool) (*Selection, error) {
	sel := &Selection{Out: out, Runs: map[string]*Run{}, Diffs: map[string]*Run{}, Notes: map[string][]string{}}
	named := map[string]RunRef{}
	for _, r := range runs {
		named[r.Suite] = r
	}
	against := map[string]RunRef{}
	for _, r := range diffs {
		against[r.Suite] = r
	}
	for _, suite := range Suites {
		list, err := ListRuns(out, suite)
		if err != nil {
			return nil, err
		}
		cur, pos, err := pickRun(out, suite, list, named)
		if err != nil {
			return nil, err
		}
		if cur == nil {
			continue
		}
		sel.Runs[suite] = cur
		if ref, ok := against[suite]; ok {
			if ref == cur.RunRef {
				return nil, fmt.Errorf("--diff %s: the run shown itself", ref)
			}
			if sel.Diffs[suite], err = loadNamed("--diff", out, ref); err != nil {
				return nil, err
			}
		} else if !noDiff {
			// The run before is the report's own choice: one it cannot read is said, not fatal.
			if sel.Diffs[suite], _, err = firstMatrixRun(out, suite, list, pos+1); err != nil {
				sel.Notes[suite] = append(sel.Notes[suite], "No comparison with the run before: "+err.Error())
			}
		}
		if suite == SuiteGrpcweb {
			if sel.Bench, err = benchRun(out, cur, list); err != nil {
				return nil, err
			}
		}
	}
	for _, r := range runs {
		if sel.Runs[r.Suite] == nil {
			return nil, fmt.Errorf("--runs %s: no such run (%s has no results.jsonl)", r, filepath.Dir(journal(out, r)))
		}
	}
	for _, r := range diffs {
		if sel.Runs[r.Suite] == nil {
			return nil, fmt.Errorf("--diff %s: the report has no %s run to compare it with", r, r.Suite)
		}
	}
	return sel, nil
}

// pickRun loads the run named for suite, else the newest matrix run; pos is its index in list
// (len(list) for a named run that is not in it).
func pickRun(out, suite string, list []RunRef, named map[string]RunRef) (*Run, int, error) {
	ref, ok := named[suite]
	if !ok {
		return firstMatrixRun(out, suite, list, 0)
	}
	r, err := loadNamed("--runs", out, ref)
	if err != nil {
		return nil, 0, err
	}
	for i, x := range list {
		if x == ref {
			return r, i, nil
		}
	}
	return r, len(list), nil
}

// loadNamed loads a run a flag names; a missing run is an error naming the flag.
func loadNamed(flag, out string, ref RunRef) (*Run, error) {
	if _, err := os.Stat(journal(out, ref)); err != nil {
		return nil, fmt.Errorf("%s %s: no such run (%s has no results.jsonl)", flag, ref, filepath.Dir(journal(out, ref)))
	}
	return LoadRun(out, ref)
}

// firstMatrixRun loads the first run from list[from:] that is a matrix run: a gRPC-web run of
// the benchmark alone (make grpcweb-bench) is not the suite's matrix, so it is passed over.
func firstMatrixRun(out, suite string, list []RunRef, from int) (*Run, int, error) {
	for i := from; i < len(list); i++ {
		r, err := LoadRun(out, list[i])
		if err != nil {
			return nil, 0, err
		}
		if suite != SuiteGrpcweb || !benchOnly(r) {
			return r, i, nil
		}
	}
	return nil, len(list), nil
}

func isBenchCase(name string) bool { return strings.HasPrefix(name, "bench") }

func benchOnly(r *Run) bool {
	for _, c := range r.Results {
		if !isBenchCase(c.Case) {
			return false
		}
	}
	return len(r.Results) > 0
}

// benchRun is the gRPC-web run whose benchmark the report shows: the run shown when it has bench
// cells, else the newest run that wrote a bench.csv.
func benchRun(out string, cur *Run, list []RunRef) (*Run, error) {
	for _, c := range cur.Results {
		if isBenchCase(c.Case) {
			return cur, nil
		}
	}
	for _, ref := range list {
		if _, err := os.Stat(filepath.Join(out, ref.Suite, ref.ID, "bench.csv")); err == nil {
			return LoadRun(out, ref)
		}
	}
	return nil, nil
}
