package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/images"
	"github.com/wirelab/wirelab/internal/manifest"
)

func runImages(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "images", "[NAME...] | --for SUITE [--servers A,B] [--clients C,D]")
	out := fs.String("out", filepath.Join(e.root, "out"), "output `dir`; build logs and inventory go to <dir>/images")
	hostNet := fs.Bool("host-network", false, "run RUN steps with --network host from the start (default: only after a build cannot reach the archive)")
	suite := fs.String("for", "", "build what a run of `suite` starts (quic, h2, grpcweb, bench): its images with a role, "+
		"the images it uses besides (manifest used_by: sim, tshark, ...) and what they build FROM")
	servers := fs.String("servers", "", "with --for: only these of the suite's servers, as the suite's --servers (`names`, comma-separated)")
	clients := fs.String("clients", "", "with --for: only these of the suite's clients, as the suite's --clients (`names`, comma-separated)")
	jobs := fs.Int("j", images.DefaultJobs, "images built at a time (independent ones: each waits for the images it builds FROM)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	switch {
	case *jobs < 1:
		return badInputf("-j %d: want at least 1", *jobs)
	case *suite != "" && fs.NArg() > 0:
		return badInputf("--for %s and image names %s: give one or the other", *suite, strings.Join(fs.Args(), " "))
	case *suite == "" && (*servers != "" || *clients != ""):
		return badInputf("--servers and --clients narrow --for SUITE; without it name the images")
	}
	ms, err := manifest.LoadDir(filepath.Join(e.root, "images"))
	if err != nil {
		return err
	}
	var order []*manifest.Manifest
	if *suite != "" {
		sel := images.Selection{}
		for role, names := range map[string]string{"server": *servers, "client": *clients} {
			if names != "" {
				for _, n := range strings.Split(names, ",") {
					sel[role] = append(sel[role], strings.TrimSpace(n))
				}
			}
		}
		if order, err = images.Needed(ms, *suite, sel); err != nil {
			return badInputf("--for %s: %v", *suite, err)
		}
	} else if order, err = manifest.BuildOrder(ms, fs.Args()); err != nil {
		return badInputf("%v", err)
	}
	if err := e.docker.CheckEngine(ctx); err != nil {
		return err
	}
	if *suite != "" {
		var names []string
		for _, m := range order {
			names = append(names, m.Name)
		}
		fmt.Fprintf(e.stdout, "images: for %s, %d of %d: %s\n", *suite, len(order), len(ms), strings.Join(names, " "))
	}
	b := &images.Builder{Docker: e.docker, Root: e.root, Out: *out, Progress: e.stdout, HostNetwork: *hostNet, Jobs: *jobs}
	if err := b.Build(ctx, order); err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	return nil
}
