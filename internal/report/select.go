package report

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/suite"
)

// Selection is what one report shows: per registered suite the run, and the older run it is
// compared with.
type Selection struct {
	Out    string
	Runs   map[string]*Run     // suite -> the run shown
	Diffs  map[string]*Run     // suite -> the run its verdicts are compared with (absent: none)
	Others map[string][]RunRef // suite -> its runs but the one shown, newest first
	Notes  map[string][]string // suite -> what the dashboard should say about the selection
	suites []*shown
}

// Select picks the runs: a suite named in runs shows that run, any other suite its latest; the
// comparison is with the suite's run named in diffs, else (unless noDiff) with the run before
// the one shown. Every error is the user's input: a named run that is not there, a
// results.jsonl that is not one. The suites are the registry's.
func Select(out string, reg suite.Registry, runs, diffs []RunRef, noDiff bool) (*Selection, error) {
	sel := &Selection{Out: out, Runs: map[string]*Run{}, Diffs: map[string]*Run{}, Others: map[string][]RunRef{},
		Notes: map[string][]string{}, suites: shownSuites(reg)}
	named := map[string]RunRef{}
	for _, r := range runs {
		named[r.Suite] = r
	}
	against := map[string]RunRef{}
	for _, r := range diffs {
		against[r.Suite] = r
	}
	for _, s := range sel.suites {
		suite := s.name
		list, err := ListRuns(out, suite)
		if err != nil {
			return nil, err
		}
		cur, pos, err := pickRun(out, s, list, named)
		if err != nil {
			return nil, err
		}
		if cur == nil {
			continue
		}
		sel.Runs[suite] = cur
		for _, ref := range list {
			if ref != cur.RunRef {
				sel.Others[suite] = append(sel.Others[suite], ref)
			}
		}
		if ref, ok := against[suite]; ok {
			if ref == cur.RunRef {
				return nil, fmt.Errorf("--diff %s: the run shown itself", ref)
			}
			if sel.Diffs[suite], err = loadNamed("--diff", out, ref); err != nil {
				return nil, err
			}
		} else if !noDiff {
			// The run before is the report's own choice: one it cannot read is said, not fatal.
			if sel.Diffs[suite], _, err = firstMatrixRun(out, s, list, pos+1); err != nil {
				sel.Notes[suite] = append(sel.Notes[suite], "No comparison with the run before: "+err.Error())
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
func pickRun(out string, s *shown, list []RunRef, named map[string]RunRef) (*Run, int, error) {
	ref, ok := named[s.name]
	if !ok {
		return firstMatrixRun(out, s, list, 0)
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

// firstMatrixRun loads the first run from list[from:] that is the suite's matrix (its view
// passes over others: a gRPC-web run of the benchmark alone).
func firstMatrixRun(out string, s *shown, list []RunRef, from int) (*Run, int, error) {
	for i := from; i < len(list); i++ {
		r, err := LoadRun(out, list[i])
		if err != nil {
			return nil, 0, err
		}
		if s.view.IsMatrix(r.Results) {
			return r, i, nil
		}
	}
	return nil, len(list), nil
}
