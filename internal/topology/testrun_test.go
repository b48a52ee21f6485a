package topology

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/run"
)

// integrationRun starts a labelled test run against the engine (skipping without
// WIRELAB_INTEGRATION) and returns what cells need: the run's context, docker, compose and the
// repository root. The run finishes (and cleans up) with the test.
func integrationRun(t *testing.T, needs string) (context.Context, *docker.CLI, *docker.Compose, string, *run.Run) {
	t.Helper()
	if os.Getenv("WIRELAB_INTEGRATION") == "" {
		t.Skip("set WIRELAB_INTEGRATION=1 (needs the docker engine and " + needs + ")")
	}
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
