package cli

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/manifest"
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
	ms, err := manifest.LoadDir(filepath.Join(e.root, "images"))
	if err != nil {
		return err
	}
	if ms, err = selectImages(ms, fs.Args()); err != nil {
		return err
	}
	rows := planVersions(ms)
	if err := checkGoPins(ctx, *goBin, e.root, rows); err != nil {
		return err
	}
	// Both registries are asked even when one fails, so the table says as much as is known.
	errGo := fillGo(ctx, *goBin, e.root, rows)
	errDeb := fillDebian(ctx, e.docker, *base, rows)
	if errDeb != nil {
		for i := range rows {
			if rows[i].Registry == registryDebian && rows[i].Status == "" {
				rows[i].Status, rows[i].Note = statusUnknown, "archive not asked (see the error below)"
			}
		}
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	write := writeVersionsTable
	if *asJSON {
		write = writeVersionsJSON
	}
	if err := write(e.stdout, rows); err != nil {
		return err
	}
	return errors.Join(errDeb, errGo)
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
