package versions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/manifest"
)

// goList runs `go list -m -json QUERY` in the module at root and returns the version it
// resolves. Query MOD is what go.mod selects (no network); MOD@upgrade asks the module proxy
// (GOPROXY) for the newest release above that, or answers the selected version when there is none.
func goList(ctx context.Context, goBin, root, query string) (string, error) {
	cmd := exec.CommandContext(ctx, goBin, "list", "-m", "-json", query)
	cmd.Dir = root
	// -mod=mod: a query may need go.sum lines the build does not; nothing is written back.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go list -m %s: %s", query, lastLine(errb.Bytes()))
	}
	var m struct{ Version string }
	if err := json.Unmarshal(out.Bytes(), &m); err != nil || m.Version == "" {
		return "", fmt.Errorf("go list -m %s: no version in its answer", query)
	}
	return m.Version, nil
}

// CheckGoPins makes each Go row's pinned version (the manifest's) agree with what go.mod selects,
// which is what the image is really built from; a mismatch is a manifest error (exit 2).
func CheckGoPins(ctx context.Context, goBin, root string, rows []Row) error {
	if _, err := exec.LookPath(goBin); err != nil {
		return &docker.EnvError{Msg: fmt.Sprintf("go command %q not found (install Go, see make deps)", goBin)}
	}
	for _, r := range rows {
		if r.Registry != RegistryGo {
			continue
		}
		selected, err := goList(ctx, goBin, r.moduleRoot(root), r.Package)
		if err != nil {
			return &manifest.Error{File: r.manifest, Field: "implementation.module",
				Msg: fmt.Sprintf("%s is not required by go.mod (%v)", r.Package, err)}
		}
		if plainGoVersion(selected) != plainGoVersion(r.Pinned) {
			return &manifest.Error{File: r.manifest, Field: "implementation.version",
				Msg: fmt.Sprintf("%q, but go.mod selects %s %s", r.Pinned, r.Package, selected)}
		}
	}
	return nil
}

// fillGo asks the module proxy for each Go row's newest release. A proxy that cannot be asked
// leaves the row unknown and is returned as an environment error.
func fillGo(ctx context.Context, goBin, root string, rows []Row) error {
	var firstErr error
	for i := range rows {
		r := &rows[i]
		if r.Registry != RegistryGo {
			continue
		}
		newest, err := goList(ctx, goBin, r.moduleRoot(root), r.Package+"@upgrade")
		if err != nil {
			r.Status, r.Note = StatusUnknown, oneLine(err)
			if firstErr == nil {
				firstErr = &docker.EnvError{Msg: "asking the Go module proxy: " + oneLine(err)}
			}
			continue
		}
		r.Newest, r.Where = plainGoVersion(newest), "module proxy"
		r.Status = StatusUpToDate
		if r.Newest != plainGoVersion(r.Pinned) {
			r.Status = StatusOutdated // @upgrade only ever answers a higher version than the selected one
		}
	}
	return firstErr
}

// plainGoVersion is a Go module version as a manifest pins it: without the v prefix and without
// the +incompatible suffix Go adds to a v2+ module that has no go.mod, so v2.2.1+incompatible
// reads 2.2.1. A pseudo-version keeps its date and commit (v0.0.0-20240102030405-0123456789ab
// reads 0.0.0-20240102030405-0123456789ab).
func plainGoVersion(v string) string {
	return strings.TrimSuffix(strings.TrimPrefix(v, "v"), "+incompatible")
}

// moduleRoot is where the row's module is resolved: the image's own go.mod (build.go_module) or
// the checkout's.
func (r Row) moduleRoot(root string) string {
	if r.goModule != "" {
		return r.goModule
	}
	return root
}
