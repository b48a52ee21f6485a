// Package tshark runs tshark and editcap of the wirelab/tshark image (images/tshark) in
// network-less containers through the docker CLI.
package tshark

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/docker"
)

// Image is the tshark image (images/tshark).
const Image = "wirelab/tshark:latest"

// Tool runs tshark in the wirelab/tshark image through the docker CLI.
type Tool struct {
	Docker *docker.CLI // default docker.New()
	server string      // the serving container (Serve), "" when each pass runs a container of its own
	served string      // the folder it has, at the same path
	Image  string      // default Image
}

func (r *Tool) cli() *docker.CLI {
	if r != nil && r.Docker != nil {
		return r.Docker
	}
	return docker.New()
}

func (r *Tool) image() string {
	if r != nil && r.Image != "" {
		return r.Image
	}
	return Image
}

// Available reports whether the tshark image exists locally (`docker image inspect`).
func (r *Tool) Available(ctx context.Context) error {
	_, err := r.cli().Run(ctx, "image", "inspect", "--format", "{{.Id}}", r.image())
	return err
}

// mounts maps host files to container paths: one read-only mount per distinct directory, none
// for a file under the folder a serving container has (Serve) at the same path.
type mounts struct {
	args   []string
	dirs   map[string]string
	served string
}

func (m *mounts) path(host string) (string, error) {
	abs, err := filepath.Abs(host)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", err
	}
	if under(abs, m.served) {
		return abs, nil
	}
	dir, base := filepath.Dir(abs), filepath.Base(abs)
	if m.dirs == nil {
		m.dirs = map[string]string{}
	}
	c, ok := m.dirs[dir]
	if !ok {
		c = "/t" + strconv.Itoa(len(m.dirs))
		m.dirs[dir] = c
		m.args = append(m.args, "-v", dir+":"+c+":ro")
	}
	return c + "/" + base, nil
}

// under reports whether path lies in dir ("" is no folder).
func under(path, dir string) bool {
	return dir != "" && (path == dir || strings.HasPrefix(path, dir+string(filepath.Separator)))
}

// Serve starts one long-lived tshark container (no network, as the calling user) with dir
// mounted at its own path, labelled with labels: every tshark and editcap pass over files under
// dir then runs in it (docker exec) instead of in a container of its own, which saves a
// container's creation, start and removal per pass — a second or more per cell on a loaded
// machine. Close removes it; the run's cleanup removes it too (labels).
func (r *Tool) Serve(ctx context.Context, dir string, labels []string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	args := append([]string{"run", "-d", "--network", "none", "--user", strconv.Itoa(os.Getuid()) + ":" + strconv.Itoa(os.Getgid()),
		"-e", "HOME=/tmp", "-v", abs + ":" + abs}, labels...)
	id, err := r.cli().Run(ctx, append(args, "--entrypoint", "sleep", r.image(), "infinity")...)
	if err != nil {
		return fmt.Errorf("tshark: serving %s: %w", abs, err)
	}
	r.server, r.served = strings.TrimSpace(id), abs
	return nil
}

// Close removes the serving container (Serve), if any.
func (r *Tool) Close() {
	if r.server != "" {
		_, _ = r.cli().Run(context.Background(), "rm", "-f", r.server)
		r.server, r.served = "", ""
	}
}

// command is the docker command that runs tool (tshark or editcap) with args: in the serving
// container when every file the pass reads or writes is under its folder (m holds no mount),
// else in a network-less container of its own with m's mounts and extra docker options.
func (r *Tool) command(m *mounts, tool string, dockerOpts, args []string) []string {
	if r.server != "" && len(m.args) == 0 {
		return append([]string{"exec", r.server, tool}, args...)
	}
	all := append(append([]string{"run", "--rm", "--network", "none"}, dockerOpts...), m.args...)
	return append(append(all, "--entrypoint", tool, r.image()), args...)
}

// Fields runs tshark over a trace (a pcapng with its secrets embedded, see InjectSecrets) and
// returns one line per packet matching filter: the fields tab-separated, several occurrences
// of a field in one packet (HTTP/2 frames sharing a TCP segment) joined by '|'.
func (r *Tool) Fields(ctx context.Context, pcap, filter string, fields ...string) (string, error) {
	m := mounts{served: r.served}
	cp, err := m.path(pcap)
	if err != nil {
		return "", fmt.Errorf("trace: %w", err)
	}
	targs := []string{"-r", cp, "-n", "-Y", filter, "-T", "fields", "-E", "aggregator=|"}
	for _, f := range fields {
		targs = append(targs, "-e", f)
	}
	args := r.command(&m, "tshark", nil, targs)
	var out, errb bytes.Buffer
	cmd := r.cli().Cmd(ctx, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("tshark on %s: %v: %s", pcap, err, lastLine(errb.String()))
	}
	return out.String(), nil
}

// InjectSecrets writes out (pcapng) = in with the TLS keylog embedded as a Decryption Secrets
// Block (`editcap --inject-secrets tls,<keylog> in out`), so Wireshark opens it decrypted.
func (r *Tool) InjectSecrets(ctx context.Context, in, keylog, out string) error {
	m := mounts{served: r.served}
	ci, err := m.path(in)
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	ck, err := m.path(keylog)
	if err != nil {
		return fmt.Errorf("keylog: %w", err)
	}
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	co := "/out/" + filepath.Base(outAbs)
	opts := []string{"--user", strconv.Itoa(os.Getuid()) + ":" + strconv.Itoa(os.Getgid())}
	if under(outAbs, r.served) {
		co = outAbs
	} else {
		opts = append(opts, "-v", filepath.Dir(outAbs)+":/out")
	}
	args := r.command(&m, "editcap", opts, []string{"--inject-secrets", "tls," + ck, ci, co})
	if _, err := r.cli().Run(ctx, args...); err != nil {
		return fmt.Errorf("inject secrets: %w", err)
	}
	return nil
}

// Script runs a shell script in ONE tshark container (no network, as the calling user, so what
// it writes is the user's) with binds mounted (`host:container[:ro]`): a batch over many traces
// pays the container's start once. The script's standard output streams to stdout.
func (r *Tool) Script(ctx context.Context, binds []string, script string, stdout io.Writer) error {
	args := []string{"run", "--rm", "--network", "none", "--user", strconv.Itoa(os.Getuid()) + ":" + strconv.Itoa(os.Getgid()),
		"-e", "HOME=/tmp"}
	for _, b := range binds {
		args = append(args, "-v", b)
	}
	args = append(args, "--entrypoint", "sh", r.image(), "-c", script)
	var errb bytes.Buffer
	cmd := r.cli().Cmd(ctx, args...)
	cmd.Stdout, cmd.Stderr = stdout, &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("tshark batch: %v: %s", err, lastLine(errb.String()))
	}
	return nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && !strings.Contains(l, "could be dangerous") {
			return l
		}
	}
	return "no output"
}

// Exec runs one tshark pass over pcap (with the secrets in keylog, may be "" when the pcapng
// carries them) in a network-less container; extra (decode-as options, a display filter, -T
// fields -e ...) follows the input options. Standard output streams to stdout; a failing tshark
// (a damaged capture) is an error ending in tshark's last line.
func (r *Tool) Exec(ctx context.Context, pcap, keylog string, stdout io.Writer, extra ...string) error {
	all, m, err := r.dockerArgs(pcap, keylog, extra)
	if err != nil {
		return err
	}
	var errb bytes.Buffer
	cmd := r.cli().Cmd(ctx, all...)
	cmd.Stdout, cmd.Stderr = stdout, &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("tshark on %s: %v: %s", pcap, err, m.host(tsharkError(errb.String())))
	}
	return nil
}

// dockerArgs is the full `docker ...` argument list of Exec, and the mounts it makes.
func (r *Tool) dockerArgs(pcap, keylog string, extra []string) ([]string, *mounts, error) {
	m := mounts{served: r.served}
	cp, err := m.path(pcap)
	if err != nil {
		return nil, nil, fmt.Errorf("trace: %w", err)
	}
	args := []string{"-r", cp, "-n"}
	if keylog != "" {
		ck, err := m.path(keylog)
		if err != nil {
			return nil, nil, fmt.Errorf("keylog: %w", err)
		}
		args = append(args, "-o", "tls.keylog_file:"+ck)
	}
	return r.command(&m, "tshark", nil, append(args, extra...)), &m, nil
}

// tsharkError is tshark's complaint as one line: from its last "tshark:" line on (a damaged
// file's detail follows on the next line), else the last line.
func tsharkError(stderr string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "tshark:") {
			return strings.Join(strings.Fields(strings.Join(lines[i:], " ")), " ")
		}
	}
	return lastLine(stderr)
}

// host turns the container paths in s back into the host paths they mount.
func (m *mounts) host(s string) string {
	for dir, c := range m.dirs {
		s = strings.ReplaceAll(s, c+"/", dir+"/")
	}
	return s
}
