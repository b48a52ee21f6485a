package topology

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// Exit is one of the cell's containers ending: its compose service, exit code and when.
type Exit struct {
	Service string
	Code    int
	At      time.Time
}

// Exits follows the cell's container exits from the engine's event stream, so a cell waits on
// the event instead of polling each container's state. It reads from a time before the cell's
// containers start (docker events --since), so no exit is missed however late it subscribes.
type Exits struct {
	cmd  *exec.Cmd
	ch   chan Exit
	mu   sync.Mutex
	seen map[string]Exit
	wake chan struct{} // closed and replaced at every exit
}

// WatchExits starts following the cell's exits from since (take it before the first Up); the
// cell's waits (WaitListen, WaitConnected) then end at a service's exit too.
func (c *Cell) WatchExits(ctx context.Context, since time.Time) (*Exits, error) {
	cmd := c.run.Docker.Cmd(ctx, "events", "--since", fmt.Sprintf("%d.%09d", since.Unix(), since.Nanosecond()),
		"--filter", "type=container", "--filter", "event=die", "--filter", "label=com.docker.compose.project="+c.Project(),
		"--format", "{{json .}}")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cell %s: docker events: %v", c.Name, err)
	}
	x := &Exits{cmd: cmd, ch: make(chan Exit, 64), seen: map[string]Exit{}, wake: make(chan struct{})}
	c.exits = x
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var ev struct {
				TimeNano int64 `json:"timeNano"`
				Actor    struct {
					Attributes map[string]string
				}
			}
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				continue
			}
			attrs := ev.Actor.Attributes
			code, err := strconv.Atoi(attrs["exitCode"])
			if err != nil {
				code = -1
			}
			e := Exit{Service: attrs["com.docker.compose.service"], Code: code, At: time.Unix(0, ev.TimeNano)}
			x.mu.Lock()
			x.seen[e.Service] = e
			close(x.wake)
			x.wake = make(chan struct{})
			x.mu.Unlock()
			select {
			case x.ch <- e:
			default: // nobody reads the stream any more (the cell is being fenced)
			}
		}
	}()
	return x, nil
}

// C delivers every exit as it happens.
func (x *Exits) C() <-chan Exit { return x.ch }

// Exited reports whether a service has exited, and its code; wake is closed at the next exit.
func (x *Exits) Exited(service string) (code int, exited bool, wake <-chan struct{}) {
	x.mu.Lock()
	defer x.mu.Unlock()
	e, exited := x.seen[service]
	return e.Code, exited, x.wake
}

// ExitedBefore reports a service's exit when the engine timed it before t (an exit the cell did
// not cause: before its fence), and its code. Every exit until t has been delivered once an event
// timed after t has, or the stream ended.
func (x *Exits) ExitedBefore(service string, t time.Time) (int, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	e, ok := x.seen[service]
	return e.Code, ok && e.At.Before(t)
}

// Wait waits until a service exits or ctx ends, and returns its exit code.
func (x *Exits) Wait(ctx context.Context, service string) (int, error) {
	for {
		code, exited, wake := x.Exited(service)
		if exited {
			return code, nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return -1, ctx.Err()
		}
	}
}

// Stop ends the event stream.
func (x *Exits) Stop() {
	if x.cmd.Process != nil {
		_ = x.cmd.Process.Kill()
	}
	_ = x.cmd.Wait()
}
