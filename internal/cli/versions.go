package cli

import (
	"context"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/versions"
)

// runVersions prints, per image, the pinned version next to the newest its registry serves: Debian
// packages through apt in a throwaway container of the base image, Go modules through the module
// proxy. Outdated is information (exit 0); bad manifests exit 2, an unreachable registry 3.
func runVersions(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "versions", "[IMAGE...]")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	base := fs.String("base-image", "wirelab/base:trixie", "`image` whose apt sources answer for Debian packages")
	goBin := fs.String("go", "go", "the `go` command that asks the module proxy")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	ms, err := e.manifests()
	if err != nil {
		return err
	}
	if ms, err = selectImages(ms, fs.Args()); err != nil {
		return err
	}
	rows := versions.Plan(ms)
	if err := versions.CheckGoPins(ctx, *goBin, e.root, rows); err != nil {
		return err
	}
	errFill := versions.Fill(ctx, e.docker, *goBin, e.root, *base, rows)
	if ctx.Err() != nil {
		return errInterrupted
	}
	write := versions.WriteTable
	if *asJSON {
		write = versions.WriteJSON
	}
	if err := write(e.stdout, rows); err != nil {
		return err
	}
	return errFill
}

// selectImages keeps the named images (all when names is empty); an unknown name is bad input.
func selectImages(ms []*manifest.Manifest, names []string) ([]*manifest.Manifest, error) {
	if len(names) == 0 {
		return ms, nil
	}
	byName := map[string]*manifest.Manifest{}
	for _, m := range ms {
		byName[m.Name] = m
	}
	var out []*manifest.Manifest
	for _, n := range names {
		m, ok := byName[n]
		if !ok {
			return nil, badInputf("unknown image %q (see wirelab list)", n)
		}
		out = append(out, m)
	}
	return out, nil
}
