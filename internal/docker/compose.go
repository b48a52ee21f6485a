package docker

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
)

var composeVersionRE = regexp.MustCompile(`(?i)version\s+v?(\d+)\.(\d+)`)

// ComposeHint tells how to get compose v2 on a Debian host.
const ComposeHint = "install compose v2: Debian trixie's docker-compose (2.26, a static binary that also installs on bookworm): " +
	"add trixie to apt sources with a low pin, then apt-get install --no-install-recommends -t trixie docker-compose (what ci/install-deps.sh does)"

// Compose runs compose v2 ("docker compose" or a standalone docker-compose >= 2).
type Compose struct{ Argv []string }

// Cmd builds `compose -f file args...` with extra environment (compose files read run ids from it).
func (c *Compose) Cmd(ctx context.Context, file string, env []string, args ...string) *exec.Cmd {
	argv := append(append(append([]string{}, c.Argv[1:]...), "-f", file), args...)
	cmd := exec.CommandContext(ctx, c.Argv[0], argv...)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// Compose finds compose v2: the docker plugin if there, else a standalone docker-compose binary of
// version 2 or later.
func (c *CLI) Compose(ctx context.Context) (*Compose, error) {
	if out, err := c.Cmd(ctx, "compose", "version").Output(); err == nil && major(string(out)) >= 2 {
		return &Compose{Argv: []string{c.Bin, "compose"}}, nil
	}
	if path, err := exec.LookPath("docker-compose"); err == nil {
		if out, err := exec.CommandContext(ctx, path, "version").Output(); err == nil && major(string(out)) >= 2 {
			return &Compose{Argv: []string{path}}, nil
		}
		return nil, &EnvError{Msg: "docker-compose at " + path + " is compose v1; " + ComposeHint}
	}
	return nil, &EnvError{Msg: "compose v2 not found; " + ComposeHint}
}

func major(versionOutput string) int {
	m := composeVersionRE.FindStringSubmatch(versionOutput)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
