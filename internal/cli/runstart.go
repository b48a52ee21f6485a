package cli

import (
	"context"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/run"
)

// startRun checks the machine (engine, compose v2; not for a run without containers) and starts
// a labelled run. Callers validate all their input before, so bad input never leaves anything
// started; they must defer Finish.
func (e *env) startRun(ctx context.Context, opts run.Options, engine bool) (*run.Run, context.Context, *docker.Compose, error) {
	var compose *docker.Compose
	opts.NoContainers = !engine
	if engine {
		if err := e.docker.CheckEngine(ctx); err != nil {
			return nil, nil, nil, err
		}
		var err error
		if compose, err = e.docker.Compose(ctx); err != nil {
			return nil, nil, nil, err
		}
	}
	r, ctx, err := run.Start(ctx, opts, e.docker)
	if err != nil {
		return nil, nil, nil, err
	}
	return r, ctx, compose, nil
}
