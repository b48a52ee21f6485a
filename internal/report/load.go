package report

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/run"
)

// The matrix suites the report reads, in the order it shows them.
const (
	SuiteQUIC    = "quic"
	SuiteH2      = "h2"
	SuiteGrpcweb = "grpcweb"
)

// Suites are the matrix suites, in report order.
var Suites = []string{SuiteQUIC, SuiteH2, SuiteGrpcweb}

func knownSuite(s string) bool {
	for _, x := range Suites {
		if x == s {
			return true
		}
	}
	return false
}

// RunRef names one run: out/<Suite>/<ID>/.
type RunRef struct{ Suite, ID string }

func (r RunRef) String() string { return r.Suite + "/" + r.ID }

// ParseRunRefs parses a comma-separated list of suite/run-id ("quic/20261123-101500-ab12,h2/x"):
// a known suite, a valid run id, at most one run per suite.
func ParseRunRefs(list string) ([]RunRef, error) {
	var out []RunRef
	seen := map[string]bool{}
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		suite, id, ok := strings.Cut(item, "/")
		switch {
		case !ok || !knownSuite(suite):
			return nil, fmt.Errorf("%q: want suite/run-id with suite one of %s", item, strings.Join(Suites, ", "))
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
	Dir      string          // out/<suite>/<id>
	Results  []matrix.Result // one per cell (a cell journaled twice: the last), sorted
	Modified time.Time       // when results.jsonl was last written
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
	last := map[string]int{}
	var cells []matrix.Result
	for _, r := range rs {
		if i, ok := last[r.Key()]; ok {
			cells[i] = r
			continue
		}
		last[r.Key()] = len(cells)
		cells = append(cells, r)
	}
	matrix.SortResults(cells)
	return &Run{RunRef: ref, Dir: filepath.Join(out, ref.Suite, ref.ID), Results: cells, Modified: st.ModTime()}, nil
}
