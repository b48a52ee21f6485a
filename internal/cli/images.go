package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/images"
	"github.com/wirelab/wirelab/internal/manifest"
)

// runImages builds the named images (all when none is named) and what they build FROM, in
// parallel where the dependencies allow. A suite's run builds only what its selection starts:
// `wirelab <suite> --build-images` (make <suite> does).
func runImages(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "images", "[NAME...]")
	out := fs.String("out", filepath.Join(e.root, "out"), "output `dir`; build logs and inventory go to <dir>/images")
	hostNet := fs.Bool("host-network", false, "run RUN steps with --network host from the start (default: only after a build cannot reach the archive)")
	jobs := fs.Int("j", images.DefaultJobs, "images built at a time (independent ones: each waits for the images it builds FROM)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if *jobs < 1 {
		return badInputf("-j %d: want at least 1", *jobs)
	}
	ms, err := e.manifests()
	if err != nil {
		return err
	}
	order, err := manifest.BuildOrder(ms, fs.Args())
	if err != nil {
		return badInputf("%v", err)
	}
	return e.buildImages(ctx, order, *out, *hostNet, *jobs)
}

// buildImages builds the manifests in order, jobs at a time.
func (e *env) buildImages(ctx context.Context, order []*manifest.Manifest, out string, hostNet bool, jobs int) error {
	if err := e.docker.CheckEngine(ctx); err != nil {
		return err
	}
	b := &images.Builder{Docker: e.docker, Root: e.root, Out: out, Progress: e.stdout, HostNetwork: hostNet, Jobs: jobs}
	if err := b.Build(ctx, order); err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	return nil
}

// buildSuiteImages builds what a suite's selection starts (m.Images()) and what those build FROM.
func (e *env) buildSuiteImages(ctx context.Context, suite string, want []string, out string, jobs int) error {
	ms, err := e.manifests()
	if err != nil {
		return err
	}
	order, err := manifest.BuildOrder(ms, want)
	if err != nil {
		return badInputf("%v", err)
	}
	var names []string
	for _, m := range order {
		names = append(names, m.Name)
	}
	fmt.Fprintf(e.stdout, "images: for %s, %d of %d: %s\n", suite, len(order), len(ms), strings.Join(names, " "))
	return e.buildImages(ctx, order, out, false, jobs)
}
