package cli

import (
	"context"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/images"
	"github.com/wirelab/wirelab/internal/manifest"
)

func runImages(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "images", "[NAME...]")
	out := fs.String("out", filepath.Join(e.root, "out"), "output `dir`; build logs and inventory go to <dir>/images")
	hostNet := fs.Bool("host-network", false, "run RUN steps with --network host from the start (default: only after a build cannot reach the archive)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	ms, err := manifest.LoadDir(filepath.Join(e.root, "images"))
	if err != nil {
		return err
	}
	order, err := manifest.BuildOrder(ms, fs.Args())
	if err != nil {
		return badInputf("%v", err)
	}
	if err := e.docker.CheckEngine(ctx); err != nil {
		return err
	}
	b := &images.Builder{Docker: e.docker, Root: e.root, Out: *out, Progress: e.stdout, HostNetwork: *hostNet}
	if err := b.Build(ctx, order); err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	return nil
}
