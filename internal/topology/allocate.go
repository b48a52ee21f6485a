package topology

import (
	"context"
	"regexp"
	"strings"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/run"
)

var unsafeName = regexp.MustCompile(`[^a-z0-9-]+`)

// ProjectName makes parts (implementation, case names) into a compose project name's cell part.
func ProjectName(parts ...string) string {
	return unsafeName.ReplaceAllString(strings.ToLower(strings.Join(parts, "-")), "-")
}

// AllocateCell gives a matrix cell with output in dir subnets of its own and prepares its
// topology (named from nameParts), able to move when another process takes those subnets; release
// gives the subnets back. Every suite's cell starts here.
func (a *Allocator) AllocateCell(ctx context.Context, r *run.Run, compose *docker.Compose, root, dir string,
	env map[string]string, nameParts ...string) (*Cell, func(), error) {
	key := r.ID + "/" + dir
	subnets, release, err := a.Allocate(ctx, r.Docker, key)
	if err != nil {
		return nil, nil, err
	}
	return NewCellIn(r, compose, root, ProjectName(nameParts...), dir, subnets, env).MoveWith(a, r.Docker, key), release, nil
}
