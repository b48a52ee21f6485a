package cli

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/schedlag"
)

// lagProbe measures the machine next to a probe run: a container of the sim image sampling
// scheduling lag (`sim -lag`). A container rather than a thread of wirelab, so it sits in
// docker's CPU cgroup with the cell's containers and is scheduled as they are.
type lagProbe struct {
	d    *docker.CLI
	name string
	cmd  *exec.Cmd
	out  *bufio.Reader
}

// startLag starts the sampler and returns once it samples.
func startLag(ctx context.Context, d *docker.CLI, runID, name string) (*lagProbe, error) {
	image := cmp.Or(os.Getenv("SIM_IMAGE"), "wirelab/sim:latest") // as compose/lab.yml picks it
	cmd := d.Cmd(ctx, "run", "--rm", "--name", name, "--label", docker.LabelRun+"="+runID,
		"--network", "none", "--cap-drop", "ALL", "--entrypoint", "/usr/local/bin/sim", image, "-lag")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	l := &lagProbe{d: d, name: name, cmd: cmd, out: bufio.NewReader(pipe)}
	if line, err := l.out.ReadString('\n'); strings.TrimSpace(line) != "sampling" {
		_, _ = io.Copy(io.Discard, l.out)
		_ = cmd.Wait()
		return nil, fmt.Errorf("%s -lag did not start (%v): %s", image, err, lastWords(stderr.String()))
	}
	return l, nil
}

// stop ends the sampling (SIGTERM) and returns what it measured.
func (l *lagProbe) stop(ctx context.Context) (schedlag.Summary, error) {
	_, stopErr := l.d.Run(ctx, "stop", "-t", "5", l.name)
	rest, _ := io.ReadAll(l.out)
	waitErr := l.cmd.Wait()
	var s schedlag.Summary
	if err := json.Unmarshal(rest, &s); err != nil {
		return s, fmt.Errorf("lag sampler %s: %v (stop: %v, exit: %v)", l.name, err, stopErr, waitErr)
	}
	return s, nil
}

func lastWords(s string) string {
	lines := docker.Lines(s)
	if len(lines) == 0 {
		return "no output"
	}
	return lines[len(lines)-1]
}
