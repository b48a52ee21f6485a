package topology

import (
	"context"
	"time"

	"github.com/wirelab/wirelab/internal/cgroupcpu"
)

// CPUTime is the CPU time a service's processes used since it started (all cores, user and
// system), read from its cgroup: the difference of two readings is what it spent between them.
func (c *Cell) CPUTime(ctx context.Context, service string) (time.Duration, error) {
	out, err := c.Exec(ctx, service, "sh", "-c", cgroupcpu.Script)
	if err != nil {
		return 0, err
	}
	return cgroupcpu.Parse(string(out))
}
