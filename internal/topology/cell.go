package topology

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/run"
)

// Cell is one client -- sim -- server topology of a run.
type Cell struct {
	Name    string // unique within the run; part of the compose project name
	Dir     string // the cell's output folder: sim/, client/, server/ logs go below it
	Subnets Subnets
	Env     map[string]string // CLIENT_IMAGE, SERVER_IMAGE, SIM_PROFILE, SIM_SEED, TESTCASE, ...; may override WWW_DIR, CERTS_DIR

	run     *run.Run
	compose *docker.Compose
	file    string
	move    func(context.Context) (Subnets, error)
	exits   *Exits // WatchExits: the cell's exit events
}

// MoveWith lets Up move the cell to other subnets when another process's network took its own
// between allocation and compose up (docker: "Pool overlaps with other one on this address space").
func (c *Cell) MoveWith(a *Allocator, d *docker.CLI, key string) *Cell {
	c.move = func(ctx context.Context) (Subnets, error) { return a.Move(ctx, d, key) }
	return c
}

// NewCell prepares a cell in <run dir>/<name>; Up starts it.
func NewCell(r *run.Run, compose *docker.Compose, root, name string, subnets Subnets, env map[string]string) *Cell {
	return NewCellIn(r, compose, root, name, filepath.Join(r.Dir, name), subnets, env)
}

// NewCellIn prepares a cell whose output goes to dir (name must suit a compose project name).
func NewCellIn(r *run.Run, compose *docker.Compose, root, name, dir string, subnets Subnets, env map[string]string) *Cell {
	return &Cell{Name: name, Dir: dir, Subnets: subnets, Env: env,
		run: r, compose: compose, file: filepath.Join(root, "compose", "lab.yml")}
}

// Container is the docker name of one of the cell's services.
func (c *Cell) Container(service string) string { return c.Project() + "-" + service + "-1" }

// Project is the compose project name: unique per run and cell.
func (c *Cell) Project() string { return "wirelab-" + c.run.ID + "-" + c.Name }

func (c *Cell) environ() []string {
	abs, _ := filepath.Abs(c.Dir)
	vars := map[string]string{
		"WIRELAB_PROJECT": c.Project(),
		"CLIENT_NET4":     c.Subnets.Client4, "SERVER_NET4": c.Subnets.Server4,
		"CLIENT_NET6": c.Subnets.Client6, "SERVER_NET6": c.Subnets.Server6,
		"SIM_LOGS": filepath.Join(abs, "sim"), "CLIENT_LOGS": filepath.Join(abs, "client"), "SERVER_LOGS": filepath.Join(abs, "server"),
		"EDGE_LOGS": filepath.Join(abs, "edge"), "ORIGIN_LOGS": filepath.Join(abs, "origin"),
		"WWW_DIR": filepath.Join(abs, "www"), "DOWNLOADS_DIR": filepath.Join(abs, "downloads"), "CERTS_DIR": filepath.Join(abs, "certs"),
		// Upstream's endpoints each have both: the client serves files too (WebTransport's *-send
		// cases, where the server requests), and the server saves what it asked for.
		"CLIENT_WWW_DIR": filepath.Join(abs, "www-client"), "SERVER_DOWNLOADS_DIR": filepath.Join(abs, "downloads-server"),
	}
	for k, v := range c.Env { // c.Env may point www/certs elsewhere
		vars[k] = v
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	env := c.run.Env()
	for _, k := range keys {
		env = append(env, k+"="+vars[k])
	}
	return env
}

// Cmd returns a compose command for this cell (e.g. "exec", "-T", "client", ...).
func (c *Cell) Cmd(ctx context.Context, args ...string) *exec.Cmd {
	return c.compose.Cmd(ctx, c.file, c.environ(), args...)
}

// Up creates the cell's log folders and starts sim, client and server (or only the services
// named; a later Up starts the rest).
func (c *Cell) Up(ctx context.Context, services ...string) error {
	dirs := []string{"sim", "client", "server", "www", "downloads", "certs", "www-client", "downloads-server"}
	for _, s := range services {
		if s == "edge" || s == "origin" { // the gRPC-web chain's converters log here too
			dirs = append(dirs, s)
		}
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(c.Dir, d), 0o755); err != nil {
			return err
		}
	}
	for attempt := 1; ; attempt++ {
		out, err := c.Cmd(ctx, append([]string{"up", "-d", "--quiet-pull"}, services...)...).CombinedOutput()
		if err == nil {
			return nil
		}
		if c.move == nil || attempt == 3 || !strings.Contains(string(out), "overlaps with other one") {
			return fmt.Errorf("cell %s: compose up: %s", c.Name, lastLine(out, err))
		}
		_ = c.Stop(ctx)
		s, merr := c.move(ctx)
		if merr != nil {
			return merr
		}
		c.Subnets = s
	}
}

// Create makes the cell's log folders, networks and containers (every service of its active
// compose profiles) without starting any: Start then only starts them, which is what a cell
// waits on (creating a container costs more than starting it).
func (c *Cell) Create(ctx context.Context) error {
	for _, d := range []string{"sim", "client", "server", "www", "downloads", "certs", "edge", "origin", "www-client", "downloads-server"} {
		if err := os.MkdirAll(filepath.Join(c.Dir, d), 0o755); err != nil {
			return err
		}
	}
	for attempt := 1; ; attempt++ {
		out, err := c.Cmd(ctx, "up", "--no-start", "--quiet-pull").CombinedOutput()
		if err == nil {
			return nil
		}
		if c.move == nil || attempt == 3 || !strings.Contains(string(out), "overlaps with other one") {
			return fmt.Errorf("cell %s: compose up --no-start: %s", c.Name, lastLine(out, err))
		}
		_ = c.Stop(ctx)
		s, merr := c.move(ctx)
		if merr != nil {
			return merr
		}
		c.Subnets = s
	}
}

// Start starts created services (Create), in the order given.
func (c *Cell) Start(ctx context.Context, services ...string) error {
	args := []string{"start"}
	for _, s := range services {
		args = append(args, c.Container(s))
	}
	if _, err := c.run.Docker.Run(ctx, args...); err != nil {
		return fmt.Errorf("cell %s: %v", c.Name, err)
	}
	return nil
}

// Exec runs a command in a service and returns its stdout.
func (c *Cell) Exec(ctx context.Context, service string, args ...string) ([]byte, error) {
	cmd := c.Cmd(ctx, append([]string{"exec", "-T", service}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s: %s: %s", service, strings.Join(args, " "), lastLine([]byte(stderr.String()), err))
	}
	return out, nil
}

// Fence stops whatever writes the cell's evidence before a check reads it: the endpoints first
// (nothing sends any more), then the sim, which closes its traces and seals them
// (internal/capture). The sim flushes its pcaps only once a second while it runs, so a check that
// read them earlier would judge a fast cell without its last packets. It returns an error
// naming the sim's exit when the sim did not stop cleanly (its traces are then unsealed). extra
// names the cell's other writers (the gRPC-web chain's converters), stopped with the endpoints.
func (c *Cell) Fence(ctx context.Context, extra ...string) error {
	inspect := func() (string, error) {
		return c.run.Docker.Run(ctx, "inspect", "-f", "{{.State.Status}} {{.State.ExitCode}}", c.Container("sim"))
	}
	if state, err := inspect(); err == nil && !strings.HasPrefix(state, "running") {
		return fmt.Errorf("the sim died (%s) before the cell ended: its traces are not sealed", state)
	}
	stop := []string{"stop", "-t", "1", c.Container("client"), c.Container("server")}
	for _, x := range extra {
		stop = append(stop, c.Container(x))
	}
	_, _ = c.run.Docker.Run(ctx, stop...) // a service the cell has not (the edge of a direct chain) is no error to heed
	if _, err := c.run.Docker.Run(ctx, "stop", "-t", "5", c.Container("sim")); err != nil {
		return fmt.Errorf("cell %s: stopping the sim: %v", c.Name, err)
	}
	state, err := inspect()
	if err != nil {
		return fmt.Errorf("cell %s: the sim: %v", c.Name, err)
	}
	if state != "exited 0" {
		return fmt.Errorf("the sim did not stop cleanly (%s): its traces are not sealed", state)
	}
	return nil
}

// Stop stops the sim gracefully (it writes its final stats.json and closes the pcaps), then
// removes the cell's containers and networks.
func (c *Cell) Stop(ctx context.Context) error {
	_ = c.Cmd(ctx, "stop", "-t", "5", "sim").Run()
	out, err := c.Cmd(ctx, "down", "-t", "1", "-v").CombinedOutput()
	if err != nil {
		return fmt.Errorf("cell %s: compose down: %s", c.Name, lastLine(out, err))
	}
	return nil
}

// RerunCommand is the shell line that brings this cell's topology up by hand.
func (c *Cell) RerunCommand() string {
	var b strings.Builder
	for _, kv := range c.environ()[len(c.run.Env()):] { // the run's own WIRELAB_RUN / WIRELAB_SUITE come first
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "%s=%q ", k, v)
	}
	fmt.Fprintf(&b, "WIRELAB_RUN=%s-rerun docker compose -f compose/lab.yml up", c.run.ID)
	return b.String()
}

func lastLine(out []byte, err error) string {
	lines := docker.Lines(string(out))
	if len(lines) == 0 {
		return err.Error()
	}
	return lines[len(lines)-1]
}
