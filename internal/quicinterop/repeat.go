package quicinterop

import (
	"context"

	"github.com/wirelab/wirelab/internal/matrix"
)

// runRepeated runs a non-measurement cell once, or --repeat times (matrix.Repeat: repetition i
// in dir/r<i>/ with seed matrix.RepeatSeed(r.Seed, i)). Measurements keep their own
// repetitions (runCell) and do not come here.
func (r *Runner) runRepeated(ctx context.Context, server, client Impl, c *Case, dir string, res matrix.Result) matrix.Result {
	return matrix.Repeat(ctx, r.Repeat, r.Seed, dir, res, func(ctx context.Context, seed uint64, dir string) matrix.Result {
		rr := *r // the same runner with this repetition's seed (files, sim, rerun.sh)
		rr.Seed = seed
		return rr.runOnce(ctx, server, client, c, dir)
	})
}
