package topology

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// WaitListen waits until a service has a socket on port (proto "udp": bound; "tcp": in
// LISTEN), at most limit, and reports whether the service exited meanwhile (the cell's exit
// events, WatchExits) and with what code.
func (c *Cell) WaitListen(ctx context.Context, service, proto string, port int, limit time.Duration) (exited bool, code int, err error) {
	return c.waitProcNet(ctx, service, proto, limit, fmt.Sprintf("listen on %s port %d", proto, port),
		func(text string) bool { return ListensOn(text, proto, port) })
}

// WaitConnected waits until a service has an established TCP connection on local port port
// (a flow under way), at most limit.
func (c *Cell) WaitConnected(ctx context.Context, service string, port int, limit time.Duration) error {
	exited, code, err := c.waitProcNet(ctx, service, "tcp", limit, fmt.Sprintf("have a connection on tcp port %d", port),
		func(text string) bool { return ConnectedOn(text, port) })
	if exited {
		return fmt.Errorf("the %s exited %d before its connection on tcp port %d: %s", service, code, port, c.LastLogLine(service))
	}
	return err
}

// waitProcNet waits until a service's /proc/net/<proto>{,6} satisfies ok, at most limit, or the
// service exits. It reads the host's /proc/<pid>/net when this process sees the container's
// processes (cheap: polled every 20 ms), else through docker exec (every 200 ms). Without a way to
// look (no cat in the image) it waits out the limit's tenth and lets the cell go on.
func (c *Cell) waitProcNet(ctx context.Context, service, proto string, limit time.Duration, what string, ok func(string) bool) (exited bool, code int, err error) {
	deadline := time.Now().Add(limit)
	look := c.procNetReader(ctx, service)
	for {
		var wake <-chan struct{}
		if c.exits != nil {
			var gone bool
			if code, gone, wake = c.exits.Exited(service); gone {
				return true, code, nil
			}
		}
		text, every, lookErr := look(proto)
		blind := lookErr != nil && strings.Contains(lookErr.Error(), "executable file not found")
		switch {
		case blind:
			every = limit / 10
		case ok(text):
			return false, 0, nil
		}
		if time.Now().After(deadline) {
			return false, 0, fmt.Errorf("the %s did not %s within %s", service, what, limit)
		}
		t := time.NewTimer(every)
		select {
		case <-wake:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return false, 0, ctx.Err()
		}
		t.Stop()
		if blind {
			return false, 0, nil
		}
	}
}

// procNetReader returns how to read a service's /proc/net/<proto>{,6} and how often to poll it.
func (c *Cell) procNetReader(ctx context.Context, service string) func(proto string) (string, time.Duration, error) {
	var pid, id string
	return func(proto string) (string, time.Duration, error) {
		if pid == "" {
			out, err := c.run.Docker.Run(ctx, "inspect", "-f", "{{.State.Pid}} {{.Id}}", c.Container(service))
			if p, i, ok := strings.Cut(out, " "); err == nil && ok && p != "0" {
				pid, id = p, i
			}
		}
		if text, ok := hostProcNet(pid, id, proto); ok {
			return text, 20 * time.Millisecond, nil
		}
		out, err := c.run.Docker.Run(ctx, "exec", c.Container(service), "cat", "/proc/net/"+proto, "/proc/net/"+proto+"6")
		return out, 200 * time.Millisecond, err
	}
}

// hostProcNet reads /proc/<pid>/net/<proto>{,6} on the host, when pid is the container's (its
// cgroup names the container: a process in another pid namespace may see another process
// under that number).
func hostProcNet(pid, id, proto string) (string, bool) {
	if _, err := strconv.Atoi(pid); err != nil || id == "" {
		return "", false
	}
	cg, err := os.ReadFile("/proc/" + pid + "/cgroup")
	if err != nil || !strings.Contains(string(cg), id) {
		return "", false
	}
	a, err1 := os.ReadFile("/proc/" + pid + "/net/" + proto)
	b, err2 := os.ReadFile("/proc/" + pid + "/net/" + proto + "6")
	if err1 != nil || err2 != nil {
		return "", false
	}
	return string(a) + string(b), true
}

// TCP states in /proc/net/tcp's st column.
const (
	tcpEstablished = "01"
	tcpListen      = "0A"
)

// ConnectedOn reports whether /proc/net/tcp{,6} text has an established connection whose local
// port is port.
func ConnectedOn(procNet string, port int) bool {
	want := fmt.Sprintf(":%04X", port)
	for _, line := range strings.Split(procNet, "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && strings.HasSuffix(f[1], want) && f[3] == tcpEstablished {
			return true
		}
	}
	return false
}

// ListensOn reports whether /proc/net/<proto>{,6} text has a socket on port: for UDP any
// socket bound to it, for TCP one in LISTEN (a connection's local port is not a listener).
// local_address is "ADDR:PORT" in hex, the second column; st the fourth.
func ListensOn(procNet, proto string, port int) bool {
	want := fmt.Sprintf(":%04X", port)
	for _, line := range strings.Split(procNet, "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && strings.HasSuffix(f[1], want) && (proto != "tcp" || f[3] == tcpListen) {
			return true
		}
	}
	return false
}
