package cli

import (
	"context"
	"fmt"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/run"
)

func runClean(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "clean", "")
	id := fs.String("run-id", "", "remove only this run's resources (default: every wirelab run's)")
	dry := fs.Bool("n", false, "dry run: list what would be removed")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInputf("unexpected argument %q", fs.Arg(0))
	}
	if *id != "" && !run.ValidID(*id) {
		return badInputf("--run-id %q: not a valid run id", *id)
	}
	if err := e.docker.CheckEngine(ctx); err != nil {
		return err
	}
	sel := docker.RunSelector(*id)
	if *dry {
		_, names, err := e.docker.Leftovers(ctx, sel)
		for _, n := range names {
			fmt.Fprintln(e.stdout, n)
		}
		return err
	}
	removed, err := e.docker.RemoveLabelled(ctx, sel)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "clean: removed %s (label %s)\n", removed, sel)
	return nil
}
