package report

import (
	"path/filepath"

	"github.com/wirelab/wirelab/internal/matrix"
)

// Change is a cell whose verdict differs between the older run and the run shown.
type Change struct {
	Old, New matrix.Result
	Page     string // the new cell's page (relative to the report folder)
	OldHref  string // the old cell's folder (relative to the report folder), "" when it is gone
}

// DiffResult compares the run shown with an older run of the same suite, cell by cell.
type DiffResult struct {
	Old, New         RunRef
	Changed          []Change
	Same             int // cells in both runs with the same verdict
	OnlyOld, OnlyNew int // cells one run has and the other has not
}

// Diff compares the verdicts of the cells both runs have; pages maps a new cell's key to its
// page.
func Diff(old, cur *Run, pages map[string]string) DiffResult {
	d := DiffResult{Old: old.RunRef, New: cur.RunRef}
	before := map[string]matrix.Result{}
	for _, r := range old.Results {
		before[r.Key()] = r
	}
	seen := map[string]bool{}
	for _, r := range cur.Results {
		o, ok := before[r.Key()]
		if !ok {
			d.OnlyNew++
			continue
		}
		seen[r.Key()] = true
		if o.Result == r.Result {
			d.Same++
			continue
		}
		ch := Change{Old: o, New: r, Page: pages[r.Key()]}
		if isDir(filepath.Join(old.Dir, o.Path())) {
			ch.OldHref = "../" + escapePath(old.Suite+"/"+old.ID+"/"+filepath.ToSlash(o.Path())) + "/"
		}
		d.Changed = append(d.Changed, ch)
	}
	d.OnlyOld = len(old.Results) - len(seen)
	return d
}
