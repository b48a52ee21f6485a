// Package docker drives the docker CLI. wirelab shells out instead of linking the Docker SDK so
// that exactly what a user could type is what runs (and is printed in rerun commands).
package docker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// Labels every resource a run creates carries. LabelRun selects a run; LabelRoot marks wirelab.
const (
	LabelRun   = "wirelab.run"
	LabelSuite = "wirelab.suite"
)

// ErrEnvironment marks problems with the machine (no engine, no compose), not with the input.
var ErrEnvironment = errors.New("environment")

// EnvError is a one-line environment problem.
type EnvError struct{ Msg string }

func (e *EnvError) Error() string   { return e.Msg }
func (e *EnvError) Is(t error) bool { return t == ErrEnvironment }

// CLI runs docker commands.
type CLI struct {
	Bin string // docker binary; default "docker"
	Env []string
}

// New returns a CLI using $WIRELAB_DOCKER or "docker".
func New() *CLI {
	bin := os.Getenv("WIRELAB_DOCKER")
	if bin == "" {
		bin = "docker"
	}
	return &CLI{Bin: bin}
}

// Cmd builds a docker command (for streaming callers).
func (c *CLI) Cmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, c.Bin, args...)
	cmd.Env = append(os.Environ(), c.Env...)
	return cmd
}

// Run runs docker and returns trimmed stdout; on failure the error carries stderr's last line.
func (c *CLI) Run(ctx context.Context, args ...string) (string, error) {
	var out, errb bytes.Buffer
	cmd := c.Cmd(ctx, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return strings.TrimSpace(out.String()), fmt.Errorf("docker %s: %s", strings.Join(args, " "), lastLine(errb.String(), err))
	}
	return strings.TrimSpace(out.String()), nil
}

// RunTo runs docker with stdout and stderr going to w.
func (c *CLI) RunTo(ctx context.Context, w io.Writer, args ...string) error {
	cmd := c.Cmd(ctx, args...)
	cmd.Stdout, cmd.Stderr = w, w
	return cmd.Run()
}

// CheckEngine fails with one clear line when the Docker engine cannot be reached.
func (c *CLI) CheckEngine(ctx context.Context) error {
	if _, err := exec.LookPath(c.Bin); err != nil {
		return &EnvError{Msg: fmt.Sprintf("docker CLI %q not found: install the Docker engine (Debian: apt-get install docker.io)", c.Bin)}
	}
	var errb bytes.Buffer
	cmd := c.Cmd(ctx, "version", "--format", "{{.Server.Version}}")
	cmd.Stderr = &errb
	if out, err := cmd.Output(); err != nil || strings.TrimSpace(string(out)) == "" {
		return &EnvError{Msg: "docker engine not reachable: " + lastLine(errb.String(), err)}
	}
	return nil
}

// Lines splits docker's newline-separated output, dropping blanks.
func Lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func lastLine(stderr string, err error) string {
	lines := Lines(stderr)
	if len(lines) == 0 {
		if err == nil {
			return "no output"
		}
		return err.Error()
	}
	return lines[len(lines)-1]
}
