package topology

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ErrServerUnsupported is StartServer's error when the server answered 127: the cell's case is
// not one it supports (upstream's contract), so the cell is unsupported, not failed.
var ErrServerUnsupported = errors.New("the server answered 127 (test case not supported)")

// StartServer brings up the sim, the server and any extra services, and waits (at most 20 s)
// until the server listens on port 443 (proto udp or tcp): a client with a short handshake
// timeout must not fail because a loaded machine started the server late.
func (c *Cell) StartServer(ctx context.Context, proto string, extra ...string) error {
	if err := c.Up(ctx, append([]string{"sim", "server"}, extra...)...); err != nil {
		return err
	}
	if exited, code := c.WaitListening(ctx, "server", proto, 443, 20*time.Second); exited {
		if code == 127 {
			return ErrServerUnsupported
		}
		return fmt.Errorf("server exited %d before the client started: %s", code, c.LastLogLine("server"))
	}
	return nil
}

// WriteRerun writes the cell's rerun.sh: the wirelab command that runs this cell alone, and the
// bare topology's compose command.
func (c *Cell) WriteRerun(wirelab string) error {
	return os.WriteFile(filepath.Join(c.Dir, "rerun.sh"), []byte("#!/bin/sh\n# this cell alone, through wirelab:\n"+wirelab+
		"\n# or the bare topology (then: wirelab clean --run-id "+c.run.ID+"-rerun):\n# "+c.RerunCommand()+"\n"), 0o755)
}

// Close saves every service's log to the cell's output.txt, then stops the cell (Stop).
func (c *Cell) Close() error {
	out, _ := c.Cmd(context.Background(), "logs", "--no-color", "--timestamps").CombinedOutput()
	_ = os.WriteFile(filepath.Join(c.Dir, "output.txt"), out, 0o644)
	return c.Stop(context.Background())
}
