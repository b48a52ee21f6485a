package probe

import (
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// machine is what the machine was doing around one attempt of a probe: the evidence its
// latency verdict is judged against.
type machine struct {
	load1 float64 // 1-minute load average as the attempt began; -1: unknown
	cpus  int
	// runQueue: the mean number of runnable tasks on the machine before the flood and after the
	// grace, sampled by the meter; -1: unknown. Outside the flood, so that neither the attack
	// nor a server that burns CPU on it counts as the machine's load.
	runQueue float64
	// lates: how late the probe's own wake-ups were while the well-behaved client was measured
	// under the probe.
	lates []time.Duration
}

// slackScale is how much slower than idle the machine runs CPU-bound work: runnable tasks per
// CPU, at least 1 (the meter counts itself, standing in for the server's task). A server's work
// on the flood takes that much longer in wall time, and the well-behaved request waits behind it.
func (m machine) slackScale() float64 {
	if m.runQueue < 0 || m.cpus <= 0 {
		return 1
	}
	return math.Max(1, m.runQueue/float64(m.cpus))
}

// readLoadavg returns /proc/loadavg's 1-minute load average and the number of tasks runnable
// right now (a container shares both with its host); -1 each where there is none.
func readLoadavg() (float64, int) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1, -1
	}
	return parseLoadavg(string(data))
}

// parseLoadavg reads "0.52 0.58 0.59 3/211 12345": the first average and the running count.
func parseLoadavg(s string) (float64, int) {
	fields := strings.Fields(s)
	if len(fields) < 4 {
		return -1, -1
	}
	load, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		load = -1
	}
	running, _, _ := strings.Cut(fields[3], "/")
	n, err := strconv.Atoi(running)
	if err != nil {
		n = -1
	}
	return load, n
}

// cpus is the number of CPUs the probe may run on.
func cpus() int { return runtime.NumCPU() }
