package topology

import (
	"context"
	"os"
	"path/filepath"
)

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
