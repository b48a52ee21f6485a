package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/conformance/h2/h2tls"
	"github.com/wirelab/wirelab/conformance/h2/probe"
	"github.com/wirelab/wirelab/internal/cmdflags"
)

// config is what the flags resolve to.
type config struct {
	target *probe.Target
	probes []probe.Probe
	limits probe.Limits
	out    string
	keylog *os.File // nil without -keylog
}

// parseFlags validates every flag; each error is one line that starts with the flag's name.
// -h returns flag.ErrHelp and the usage text.
func parseFlags(args []string) (*config, string, error) {
	fs := flag.NewFlagSet("h2probe", flag.ContinueOnError)
	var (
		addr       = fs.String("addr", "", "server `host:port` (required; the only address probed)")
		serverName = fs.String("servername", "", "TLS server name and :authority (default: the host of -addr)")
		caFile     = fs.String("ca", "", "PEM `file` of the CA the server's certificate must chain to (default: system roots)")
		insecure   = fs.Bool("insecure", false, "do not verify the server's certificate")
		list       = fs.String("probes", "all", "comma `list` of probes: all, "+strings.Join(probe.Names(), ", "))
		out        = fs.String("out", "report.json", "report `file`")
		keylog     = fs.String("keylog", "", "append TLS secrets to `file` (SSLKEYLOGFILE format)")
		factor     = fs.Float64("latency-factor", probe.DefaultLatencyFactor, "the well-behaved client's p95 may grow to this many times its baseline median (or baseline p95 + 100 ms x the machine's load per CPU)")
	)
	usage, err := cmdflags.Parse(fs, args, "usage: h2probe -addr host:port [flags]")
	if err != nil {
		return nil, usage, err
	}
	host, port, err := net.SplitHostPort(*addr)
	if p, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || p < 1 || p > 65535 {
		return nil, usage, fmt.Errorf("-addr: want host:port, got %q", *addr)
	}
	probes, err := probe.Select(*list)
	if err != nil {
		return nil, usage, fmt.Errorf("-probes: %v", err)
	}
	if *factor < 1 || *factor > 1000 {
		return nil, usage, fmt.Errorf("-latency-factor: want a number in [1, 1000], got %v", *factor)
	}
	if *out == "" {
		return nil, usage, errors.New("-out: empty file name")
	}
	if fi, err := os.Stat(filepath.Dir(*out)); err != nil || !fi.IsDir() {
		return nil, usage, fmt.Errorf("-out: folder %s does not exist", filepath.Dir(*out))
	}

	tlsConf, err := h2tls.ClientConfig(cmp.Or(*serverName, host), *caFile, *insecure)
	if err != nil {
		return nil, usage, err
	}

	cfg := &config{
		target: &probe.Target{Addr: *addr, TLS: tlsConf},
		probes: probes,
		limits: probe.Defaults(),
		out:    *out,
	}
	cfg.limits.LatencyFactor = *factor
	if *keylog != "" {
		f, err := os.OpenFile(*keylog, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return nil, usage, fmt.Errorf("-keylog: %v", err)
		}
		cfg.keylog, cfg.target.KeyLog = f, f
	}
	return cfg, usage, nil
}
