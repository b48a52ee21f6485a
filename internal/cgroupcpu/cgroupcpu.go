// Package cgroupcpu reads a container's cumulative CPU time from its own cgroup (docker gives
// each container a private cgroup view): cgroup v2's cpu.stat, else v1's cpuacct.usage. The
// host reads it through docker exec (internal/topology), a process inside reads it directly
// (the browser driver, around each bench download).
package cgroupcpu

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Files are where the container's CPU time is, in the order tried.
var Files = []string{"/sys/fs/cgroup/cpu.stat", "/sys/fs/cgroup/cpuacct/cpuacct.usage"}

// Script prints the first of Files that exists (for docker exec).
var Script = "cat " + Files[0] + " 2>/dev/null || cat " + Files[1]

// Parse reads cgroup v2's cpu.stat ("usage_usec N" line) or v1's cpuacct.usage (one number,
// nanoseconds).
func Parse(s string) (time.Duration, error) {
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

// Own is the CPU time of the container this process runs in.
func Own() (time.Duration, error) {
	for _, f := range Files {
		if b, err := os.ReadFile(f); err == nil {
			return Parse(string(b))
		}
	}
	return 0, fmt.Errorf("no cgroup CPU usage in %s", strings.Join(Files, " or "))
}
