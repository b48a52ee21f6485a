package cli

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"time"

	"github.com/wirelab/wirelab/internal/run"
)

// flagSet wraps flag.FlagSet so every parse error becomes one bad-input line (exit 2).
type flagSet struct {
	*flag.FlagSet
	e     *env
	usage func()
}

func newFlags(e *env, name, args string) *flagSet {
	fs := flag.NewFlagSet("wirelab "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // bad input is one line (parse); -h prints the usage (parse)
	return &flagSet{fs, e, func() {
		fmt.Fprintf(e.stdout, "usage: wirelab %s [flags] %s\n", name, args)
		fs.SetOutput(e.stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}}
}

// parse parses args; -h prints the usage and returns help=true; an error is one bad-input line.
func (f *flagSet) parse(args []string) (help bool, err error) {
	if err := f.Parse(args); err != nil {
		if err == flag.ErrHelp {
			f.usage()
			return true, nil
		}
		return false, badInputf("%v (see %s -h)", err, f.Name())
	}
	return false, nil
}

// runFlags registers the flags every run-creating subcommand shares.
func (f *flagSet) runFlags(suite string) *run.Options {
	o := &run.Options{Suite: suite}
	f.StringVar(&o.Out, "out", filepath.Join(f.e.root, "out"), "output `dir`; the run writes to <dir>/"+suite+"/<run-id>")
	f.IntVar(&o.Jobs, "j", runtime.NumCPU(), "parallel cells")
	f.StringVar(&o.ID, "run-id", "", "run `id` (default: UTC timestamp + random suffix); labels everything the run creates")
	f.BoolVar(&o.Keep, "keep", false, "keep containers and networks after the run for debugging (wirelab clean removes them)")
	return o
}

// checkRunFlags validates shared run flags after parsing.
func checkRunFlags(o *run.Options, now time.Time) error {
	if o.ID == "" {
		o.ID = run.NewID(now)
	}
	if !run.ValidID(o.ID) {
		return badInputf("--run-id %q: want lowercase letters, digits, - and _ (max 48, starting alphanumeric)", o.ID)
	}
	if o.Jobs < 1 {
		return badInputf("-j %d: want at least 1", o.Jobs)
	}
	if o.Out == "" {
		return badInputf("--out: empty")
	}
	return nil
}
