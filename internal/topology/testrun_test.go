package topology

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/prereq"
	"github.com/wirelab/wirelab/internal/run"
)

// integrationRun starts a labelled test run against the engine (skipping without
// WIRELAB_INTEGRATION, see prereq.Integration) and returns what cells need: the run's context, docker, compose and the
// repository root. The run finishes (and cleans up) with the test.
func integrationRun(t *testing.T, needs string) (context.Context, *docker.CLI, *docker.Compose, string, *run.Run) {
	t.Helper()
	prereq.Integration(t, needs)
	ctx := context.Background()
	d := docker.New()
	compose, err := d.Compose(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	r, ctx, err := run.Start(ctx, run.Options{Out: t.TempDir(), ID: run.NewID(time.Now()), Suite: "test"}, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Finish() })
	return ctx, d, compose, root, r
}
