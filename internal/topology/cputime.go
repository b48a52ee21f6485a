package topology

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// cpuUsageScript prints the container's cumulative CPU time from its own cgroup: cgroup v2's
// cpu.stat, else v1's cpuacct.usage (docker gives each container a private cgroup view).
const cpuUsageScript = "cat /sys/fs/cgroup/cpu.stat 2>/dev/null || cat /sys/fs/cgroup/cpuacct/cpuacct.usage"

// CPUTime is the CPU time a service's processes used since it started (all cores, user and
// system), read from its cgroup: the difference of two readings is what it spent between them.
func (c *Cell) CPUTime(ctx context.Context, service string) (time.Duration, error) {
	out, err := c.Exec(ctx, service, "sh", "-c", cpuUsageScript)
	if err != nil {
		return 0, err
	}
	return ParseCPUUsage(string(out))
}

// ParseCPUUsage reads cgroup v2's cpu.stat ("usage_usec N" line) or v1's cpuacct.usage (one
// number, nanoseconds).
func ParseCPUUsage(s string) (time.Duration, error) {
	for _, line := range strings.Split(s, "\n") {
		if v, ok := strings.CutPrefix(line, "usage_usec "); ok {
			us, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return time.Duration(us) * time.Microsecond, nil
			}
		}
	}
	if ns, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
		return time.Duration(ns), nil
	}
	return 0, fmt.Errorf("cgroup CPU usage: %q is neither cpu.stat nor cpuacct.usage", strings.TrimSpace(s))
}
