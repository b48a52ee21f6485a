// Package suite is what a matrix suite is: one registration (Suite) that the generic path in
// internal/cli runs — plan, shards, resume, repetitions, baseline, JUnit, result.json, report,
// merge — with every cell run by the one lifecycle (internal/lifecycle). A suite says only what
// it loads, which cells it has (named axes), each cell's layout and its verdict.
package suite

import (
	"context"
	"flag"
	"io"
	"time"

	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/profile"
)

// Suite is one matrix suite.
type Suite interface {
	Info() Info
	// Flags registers the suite's own flags (its selections and data files) on fs.
	Flags(fs *flag.FlagSet, root string)
	// Load reads and checks everything a run of the parsed flags needs — cases, manifests,
	// chains, profiles — and starts nothing. Bad input is an error naming the file and field
	// (manifest.Error or BadInput).
	Load(in Input) (Matrix, error)
}

// Info describes a suite.
type Info struct {
	Name    string // the subcommand, out/<name>/, conformance/<name>/expected.yml
	Make    string // the make target that runs it
	Summary string // one line for `wirelab help` and `make help`
	// Roles are the roles an image can play in the suite (its manifests' roles.<name>); ALPN the
	// application protocols a manifest may declare for it (alpn.<name>; none: no ALPN here).
	Roles []string
	ALPN  []string
	// Repeat says what --repeat means for the suite ("" : the generic text); NoRepeat refuses
	// --repeat other than 1 (the suite repeats by a flag of its own).
	Repeat   string
	NoRepeat bool
	Jobs     int    // the default -j (0: one per CPU)
	Details  string // how progress lines name a cell's details ("goodput ")
	// Columns says how the terminal table lays the cells out: rows are the cells' slots (server
	// and its axes), columns the cases; ClientRows puts clients in rows and servers in columns
	// with a table per case (QUIC's upstream layout).
	ClientRows bool
}

// Input is what a suite's Load gets beside its flags.
type Input struct {
	Root      string
	Manifests []*manifest.Manifest // images/, and those given by --image
	Profiles  *profile.File        // the sim's profiles
	Repeat    int                  // --repeat
	Getenv    func(string) string
}

// Matrix is a loaded selection of a suite: its cells and how each runs.
type Matrix interface {
	// Describe is the one line the run prints about its selection ("3 clients x 7 servers x 26 cases").
	Describe() string
	// Cells are the selected cells in run order: named axes, what the manifests rule out
	// (Skip, Why), the repetition policy when the case has its own, typical seconds, groups.
	Cells() []matrix.PlanCell
	// Universe is every value of every axis of the unselected suite: a baseline entry matching
	// none is stale.
	Universe() matrix.Universe
	// OwnData reports whether the run uses the suite's own data files (its default baseline
	// applies to nothing else).
	OwnData() bool
	// Images are the images the selected cells start.
	Images() []string
	// Columns are the cases as the terminal table shows them.
	Columns() []matrix.Column
	// Before runs once before the first cell (compliance probes, shared input files); todo are
	// the cells this invocation runs (none when merging or resuming a finished run).
	Before(ctx context.Context, r *Run, todo []matrix.Cell) error
	// Layout is one repetition's topology, seeded by seed, with its output in dir (empty, made);
	// it may write the cell's input files there. A lifecycle.Unsupported error makes the
	// repetition unsupported, any other fails it.
	Layout(ctx context.Context, r *Run, c matrix.Cell, seed uint64, dir string) (lifecycle.Layout, error)
	// Verdict judges one repetition from its sealed evidence.
	Verdict(ctx context.Context, r *Run, c matrix.Cell, ev lifecycle.Evidence) matrix.Result
	// After runs once the cells are done, over every result (those of earlier shards and
	// resumed runs too): it may compare cells with each other (an oracle), and writes the suite's
	// own outputs. It returns the results the run is judged by.
	After(ctx context.Context, r *Run, results []matrix.Result) ([]matrix.Result, error)
	// Summary is result.json (the suite's layout; the generic path adds whether the run is complete).
	Summary(r *Run, results []matrix.Result) any
	// PrintTable prints what the terminal shows after the cells (the matrix and the suite's own tables).
	PrintTable(w io.Writer, r *Run, results []matrix.Result)
}

// InProcess is a Matrix whose cells run in wirelab's own process, without containers (a suite
// that tests the lab itself, or a test's toy suite): the run needs no Docker engine, and each
// repetition is RunOnce instead of a Layout through the lifecycle.
type InProcess interface {
	RunOnce(ctx context.Context, r *Run, c matrix.Cell, seed uint64, dir string) matrix.Result
}

// Combiner is a Matrix whose cells make something of all their repetitions together once they
// ran (a measurement's mean, a benchmark's record): Combine returns the cell's result.
type Combiner interface {
	Combine(r *Run, res matrix.Result) matrix.Result
}

// Reverdicter is a Suite whose run's verdicts are more than its journal's rows: After holds
// cells against each other (gRPC-web's chains against direct). Reverdict gives the verdicts the
// run judged from the journal's rows alone, so what reads a journal later (make baseline) sees
// what the run saw.
type Reverdicter interface {
	Reverdict(results []matrix.Result) []matrix.Result
}

// Run is what a suite's cells share within one invocation.
type Run struct {
	lifecycle.Env
	Seed     uint64
	CertsDir string    // the run's certificates
	Progress io.Writer // progress lines
	Rerun    string    // " --flag value" the run was narrowed with, for each cell's rerun.sh
}

// BadInput is a Load error that is the user's input: exit 2, one line.
type BadInput struct{ Msg string }

func (b BadInput) Error() string { return b.Msg }

// RunTimes are the fields every suite's result.json starts with (the upstream QUIC runner's
// names): when the run started and ended, and its folder.
type RunTimes struct {
	StartTime float64 `json:"start_time"`
	EndTime   float64 `json:"end_time"`
	LogDir    string  `json:"log_dir"`
}

// SetRun fills in the run's times and folder.
func (t *RunTimes) SetRun(start, end time.Time, dir string) {
	t.StartTime, t.EndTime, t.LogDir = float64(start.Unix()), float64(end.Unix()), dir
}
