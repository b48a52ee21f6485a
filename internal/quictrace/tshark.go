package quictrace

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

// Protocols tshark prints (with all their children) in its JSON tree. TLS handshake messages
// appear inside QUIC's CRYPTO frames; http3 is its own top-level layer.
const Protocols = "frame ip ipv6 udp quic http3"

// LongHeaderFilter is the display filter of a pass whose checks read only the handshake and the
// close: the datagrams that carry a long-header packet (any coalesced 1-RTT packet comes along)
// or a CONNECTION_CLOSE. Everything is still dissected, so connection state and decryption are
// the same; printing each 1-RTT datagram's JSON tree is what costs (a 25 MiB transfer: 23 s
// whole, 2.4 s filtered).
const LongHeaderFilter = "quic.header_form == 1 || quic.frame_type == 0x1c || quic.frame_type == 0x1d"

// TsharkArgs is the tshark command line (after the program name) that dissects pcap with the
// secrets in keylog (empty when the pcapng carries them, see InjectSecrets): UDP port 443 is
// decoded as QUIC (h3 follows from ALPN), printed as one JSON tree per datagram, only those that
// match filter when it is not empty.
func TsharkArgs(pcap, keylog, filter string) []string {
	args := []string{"-r", pcap, "-n",
		"-d", "udp.port==" + strconv.Itoa(ServerPort) + ",quic",
		"-d", "udp.port==" + strconv.Itoa(PreferredAddressPort) + ",quic"}
	if keylog != "" {
		args = append(args, "-o", "tls.keylog_file:"+keylog)
	}
	if filter != "" {
		args = append(args, "-Y", filter)
	}
	return append(args, "-T", "json", "--no-duplicate-keys", "-J", Protocols)
}

// Runner runs tshark in the wirelab/tshark image through the docker CLI.
type Runner struct {
	Docker *docker.CLI // default docker.New()
	Image  string      // default Image
}

func (r *Runner) cli() *docker.CLI {
	if r != nil && r.Docker != nil {
		return r.Docker
	}
	return docker.New()
}

func (r *Runner) image() string {
	if r != nil && r.Image != "" {
		return r.Image
	}
	return Image
}

// Available reports whether the tshark image exists locally (`docker image inspect`).
func (r *Runner) Available(ctx context.Context) error {
	_, err := r.cli().Run(ctx, "image", "inspect", "--format", "{{.Id}}", r.image())
	return err
}

// mounts maps host files to container paths: one read-only mount per distinct directory.
type mounts struct {
	args []string
	dirs map[string]string
}

func (m *mounts) path(host string) (string, error) {
	abs, err := filepath.Abs(host)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", err
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

// DockerArgs is the full `docker ...` argument list that runs one tshark pass over pcap
// (keylog and display filter optional) in a network-less container.
func (r *Runner) DockerArgs(pcap, keylog, filter string) ([]string, error) {
	var m mounts
	cp, err := m.path(pcap)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	ck := ""
	if keylog != "" {
		if ck, err = m.path(keylog); err != nil {
			return nil, fmt.Errorf("keylog: %w", err)
		}
	}
	args := append([]string{"run", "--rm", "--network", "none"}, m.args...)
	args = append(args, r.image())
	return append(args, TsharkArgs(cp, ck, filter)...), nil
}

// JSON runs the single tshark pass and returns its raw JSON output.
func (r *Runner) JSON(ctx context.Context, pcap, keylog string) ([]byte, error) {
	args, err := r.DockerArgs(pcap, keylog, "")
	if err != nil {
		return nil, err
	}
	var out, errb bytes.Buffer
	cmd := r.cli().Cmd(ctx, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("tshark on %s: %v: %s", pcap, err, lastLine(errb.String()))
	}
	return out.Bytes(), nil
}

// Load runs tshark once over pcap (with keylog, may be "") and parses its output as it streams
// (the JSON is never held in memory as a whole). With filter LongHeaderFilter the Trace holds
// the handshake datagrams only and says so (LongHeadersOnly).
func (r *Runner) Load(ctx context.Context, pcap, keylog, filter string) (*Trace, error) {
	args, err := r.DockerArgs(pcap, keylog, filter)
	if err != nil {
		return nil, err
	}
	var errb bytes.Buffer
	cmd := r.cli().Cmd(ctx, args...)
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("tshark on %s: %w", pcap, err)
	}
	t, perr := Parse(stdout)
	if perr != nil {
		io.Copy(io.Discard, stdout) // let tshark finish before Wait
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("tshark on %s: %v: %s", pcap, err, lastLine(errb.String()))
	}
	if perr != nil {
		return nil, fmt.Errorf("%s: %w", pcap, perr)
	}
	t.LongHeadersOnly = filter == LongHeaderFilter
	return t, nil
}

// Fields runs tshark over a trace (a pcapng with its secrets embedded, see InjectSecrets) and
// returns one line per packet matching filter: the fields tab-separated, several occurrences
// of a field in one packet (HTTP/2 frames sharing a TCP segment) joined by '|'.
func (r *Runner) Fields(ctx context.Context, pcap, filter string, fields ...string) (string, error) {
	var m mounts
	cp, err := m.path(pcap)
	if err != nil {
		return "", fmt.Errorf("trace: %w", err)
	}
	args := append([]string{"run", "--rm", "--network", "none"}, m.args...)
	args = append(args, r.image(), "-r", cp, "-n", "-Y", filter, "-T", "fields", "-E", "aggregator=|")
	for _, f := range fields {
		args = append(args, "-e", f)
	}
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
func (r *Runner) InjectSecrets(ctx context.Context, in, keylog, out string) error {
	var m mounts
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
	args := append([]string{"run", "--rm", "--network", "none", "--user", strconv.Itoa(os.Getuid()) + ":" + strconv.Itoa(os.Getgid())}, m.args...)
	args = append(args, "-v", filepath.Dir(outAbs)+":/out", "--entrypoint", "editcap", r.image(),
		"--inject-secrets", "tls,"+ck, ci, "/out/"+filepath.Base(outAbs))
	if _, err := r.cli().Run(ctx, args...); err != nil {
		return fmt.Errorf("inject secrets: %w", err)
	}
	return nil
}

// Script runs a shell script in ONE tshark container (no network, as the calling user, so what
// it writes is the user's) with binds mounted (`host:container[:ro]`): a batch over many traces
// pays the container's start once. The script's standard output streams to stdout.
func (r *Runner) Script(ctx context.Context, binds []string, script string, stdout io.Writer) error {
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
// carries them) in a network-less container: UDP ports ServerPort and PreferredAddressPort are
// decoded as QUIC and extra (a display filter, -T fields -e ...) follows. Standard output
// streams to stdout; a failing tshark (a damaged capture) is an error ending in tshark's last
// line.
func (r *Runner) Exec(ctx context.Context, pcap, keylog string, stdout io.Writer, extra ...string) error {
	var m mounts
	cp, err := m.path(pcap)
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	args := []string{"-r", cp, "-n",
		"-d", "udp.port==" + strconv.Itoa(ServerPort) + ",quic",
		"-d", "udp.port==" + strconv.Itoa(PreferredAddressPort) + ",quic"}
	if keylog != "" {
		ck, err := m.path(keylog)
		if err != nil {
			return fmt.Errorf("keylog: %w", err)
		}
		args = append(args, "-o", "tls.keylog_file:"+ck)
	}
	all := append([]string{"run", "--rm", "--network", "none"}, m.args...)
	all = append(append(append(all, r.image()), args...), extra...)
	var errb bytes.Buffer
	cmd := r.cli().Cmd(ctx, all...)
	cmd.Stdout, cmd.Stderr = stdout, &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("tshark on %s: %v: %s", pcap, err, m.host(tsharkError(errb.String())))
	}
	return nil
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
