// Package versions answers, per image, the pinned version next to the newest its registry serves:
// Debian packages through apt in a throwaway container of the base image, Go modules through the
// module proxy.
package versions

import (
	"context"
	"errors"
	"strings"

	"github.com/wirelab/wirelab/internal/docker"
)

// Fill asks both registries for the rows' newest versions. Both are asked even when one fails, so
// the rows say as much as is known; the errors are returned joined.
func Fill(ctx context.Context, d *docker.CLI, goBin, root, baseImage string, rows []Row) error {
	errGo := fillGo(ctx, goBin, root, rows)
	errDeb := fillDebian(ctx, d, baseImage, rows)
	if errDeb != nil {
		for i := range rows {
			if rows[i].Registry == RegistryDebian && rows[i].Status == "" {
				rows[i].Status, rows[i].Note = StatusUnknown, "archive not asked (see the error below)"
			}
		}
	}
	return errors.Join(errDeb, errGo)
}

// lastLine is the last non-empty line of out.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }
