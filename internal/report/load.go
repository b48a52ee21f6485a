package report

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/run"
)

// RunRef names one run: out/<Suite>/<ID>/.
type RunRef struct{ Suite, ID string }

func (r RunRef) String() string { return r.Suite + "/" + r.ID }

// ParseRunRefs parses a comma-separated list of suite/run-id ("quic/20261123-101500-ab12,h2/x"):
// a registered suite (of suites), a valid run id, at most one run per suite.
func ParseRunRefs(list string, suites []string) ([]RunRef, error) {
	var out []RunRef
	seen := map[string]bool{}
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		suite, id, ok := strings.Cut(item, "/")
		switch {
		case !ok || !slices.Contains(suites, suite):
			return nil, fmt.Errorf("%q: want suite/run-id with suite one of %s", item, strings.Join(suites, ", "))
		case !run.ValidID(id):
			return nil, fmt.Errorf("%q: %q is not a run id", item, id)
		case seen[suite]:
			return nil, fmt.Errorf("%q: a second run of %s", item, suite)
		}
		seen[suite] = true
		out = append(out, RunRef{suite, id})
	}
	return out, nil
}

// Run is one matrix run as the report reads it.
type Run struct {
	RunRef
	Dir string // out/<suite>/<id>
	// Results are one per cell and sub-case (a cell journaled twice: the last, with its own
	// sub-cases), sorted: a cell's sub-cases follow it.
	Results  []matrix.Result
	Modified time.Time // when results.jsonl was last written
	State    RunState  // result.json's completeness and run.json's arguments
}

// journal is a run's results.jsonl.
func journal(out string, ref RunRef) string {
	return filepath.Join(out, ref.Suite, ref.ID, "results.jsonl")
}

// ListRuns lists a suite's runs under out (folders with a results.jsonl; the latest symlink and
// other links are left out), newest first: by the time results.jsonl was last written, then by
// id (run ids start with their UTC start time).
func ListRuns(out, suite string) ([]RunRef, error) {
	entries, err := os.ReadDir(filepath.Join(out, suite))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	type found struct {
		ref RunRef
		mod time.Time
	}
	var runs []found
	for _, e := range entries {
		if !e.IsDir() || !run.ValidID(e.Name()) {
			continue
		}
		ref := RunRef{suite, e.Name()}
		if st, err := os.Stat(journal(out, ref)); err == nil {
			runs = append(runs, found{ref, st.ModTime()})
		}
	}
	sort.Slice(runs, func(a, b int) bool {
		if !runs[a].mod.Equal(runs[b].mod) {
			return runs[a].mod.After(runs[b].mod)
		}
		return runs[a].ref.ID > runs[b].ref.ID
	})
	refs := make([]RunRef, len(runs))
	for i, r := range runs {
		refs[i] = r.ref
	}
	return refs, nil
}

// LoadRun reads a run's results.jsonl strictly (a line that is not a result is an error naming
// the file and the line).
func LoadRun(out string, ref RunRef) (*Run, error) {
	path := journal(out, ref)
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: no such run (%s has no results.jsonl)", ref, filepath.Dir(path))
	}
	rs, err := matrix.ReadJournal(path)
	if err != nil {
		return nil, err
	}
	cells := latest(rs)
	matrix.SortResults(cells)
	dir := filepath.Join(out, ref.Suite, ref.ID)
	return &Run{RunRef: ref, Dir: dir, Results: cells, Modified: st.ModTime(), State: readState(dir)}, nil
}

// latest keeps each result's last line: a cell journaled again (a resumed cell run anew) takes
// the place of its first line, and its earlier sub-cases go with it (the new row brings its own).
func latest(rs []matrix.Result) []matrix.Result {
	at := map[string]int{}
	var cells []matrix.Result
	for _, r := range rs {
		k := r.Key()
		if i, ok := at[k]; ok {
			cells[i] = r
			if r.Sub == "" {
				for j := range cells {
					if cells[j].Sub != "" && cells[j].Whole().Key() == k {
						cells[j].Result = "" // dropped below
					}
				}
			}
			continue
		}
		at[k] = len(cells)
		cells = append(cells, r)
	}
	return slices.DeleteFunc(cells, func(r matrix.Result) bool { return r.Result == "" })
}
