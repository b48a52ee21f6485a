// Package cellenv is what every suite's runner needs from its run to run cells on the shared
// matrix runner: the run, its compose project and networks, the journal, the shard's cells.
// Suites embed Env in their Runner and add only what is their own.
package cellenv

import (
	"io"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/run"
	"github.com/wirelab/wirelab/internal/topology"
)

// Env is one run's wiring, shared by its cells.
type Env struct {
	Run      *run.Run
	Compose  *docker.Compose
	Root     string // the checkout (images/, conformance/)
	Alloc    *topology.Allocator
	Journal  *matrix.Journal
	Only     map[string]bool // this shard's cells (--shard), nil: all
	Progress io.Writer
	Seed     uint64
	CertsDir string
	// RerunFlags are the run's own narrowing flags (" --sizes 1KB --reps 2"), so a cell's
	// rerun.sh runs what the cell ran.
	RerunFlags string
}

// Matrix is the suite-neutral runner over this run: its folder, -j, journal, progress and shard.
func (e *Env) Matrix() *matrix.Runner {
	return &matrix.Runner{Dir: e.Run.Dir, Jobs: e.Run.Jobs, Journal: e.Journal, Progress: e.Progress, Only: e.Only}
}
