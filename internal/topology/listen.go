package topology

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// WaitListening waits until a service has a socket on port (proto "udp": bound; "tcp": in
// LISTEN), read from its /proc/net/<proto>{,6}, at most limit; it reports whether the service
// exited meanwhile and with what code. Without a way to look (no cat in the image), it just
// waits out the limit's tenth.
func (c *Cell) WaitListening(ctx context.Context, service, proto string, port int, limit time.Duration) (exited bool, code int) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		state, _ := c.State(ctx, service)
		if st, n, ok := strings.Cut(state, " "); ok && st == "exited" {
			code, _ = strconv.Atoi(n)
			return true, code
		}
		out, err := c.run.Docker.Run(ctx, "exec", c.Container(service), "cat", "/proc/net/"+proto, "/proc/net/"+proto+"6")
		if err != nil && strings.Contains(err.Error(), "executable file not found") {
			time.Sleep(limit / 10)
			return false, 0
		}
		if ListensOn(out, proto, port) {
			return false, 0
		}
		time.Sleep(200 * time.Millisecond)
	}
	return false, 0
}

// tcpListen is the LISTEN state in /proc/net/tcp's st column.
const tcpListen = "0A"

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
