package topology

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// WaitExit waits for a service's container to exit, at most limit, and returns its exit code.
func (c *Cell) WaitExit(ctx context.Context, service string, limit time.Duration) (int, error) {
	wctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	out, err := c.run.Docker.Run(wctx, "wait", c.Container(service))
	if wctx.Err() == context.DeadlineExceeded {
		return -1, fmt.Errorf("timeout: the %s did not finish within %s", service, limit)
	}
	if err != nil {
		return -1, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

// State is a service's container state and exit code, as "running 0" or "exited 137".
func (c *Cell) State(ctx context.Context, service string) (string, error) {
	return c.run.Docker.Run(ctx, "inspect", "-f", "{{.State.Status}} {{.State.ExitCode}}", c.Container(service))
}

// LastLogLine is a service's last words (its stderr and stdout), to say in one line why it failed.
func (c *Cell) LastLogLine(service string) string {
	out, _ := c.run.Docker.Cmd(context.Background(), "logs", "--tail", "20", c.Container(service)).CombinedOutput()
	return LastWords(string(out))
}

// LastWords is the last line of a log that is not a shell trace ("+ cmd", from set -x in an
// endpoint script): a quiet client (ngtcp2's -q) that fails says nothing after its command line.
func LastWords(log string) string {
	lines := strings.Split(strings.TrimSpace(log), "\n")
	last := ""
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "+ ") {
			last = l
			break
		}
	}
	if len(last) > 200 {
		last = last[:200] + "..."
	}
	if last == "" {
		return "no output"
	}
	return last
}
