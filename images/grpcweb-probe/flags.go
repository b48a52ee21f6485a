package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/cmdflags"
)

const (
	roleClient = "client" // runs the case's check against --target
	roleServer = "server" // h2c gRPC upstream playing the case's quirk
	roleOrigin = "origin" // HTTP/1.1 gRPC-web origin playing the case's quirk
)

// config is what the flags resolve to.
type config struct {
	role, caseName string
	target         string // client: host:port of the first hop
	listen         string // server, origin: listen address
	logPath        string // "" none, else a file of JSON lines
	observedPath   string // server: what the gRPC server saw of each call (internal/observed); "" none
	rtt            time.Duration
	benchSeconds   float64
	benchOut       string
}

// parseFlags validates every flag; each error is one line naming the flag. version is true for
// --version (nothing else is validated then).
func parseFlags(args []string) (cfg config, version bool, usage string, err error) {
	fs := flag.NewFlagSet("grpcweb-probe", flag.ContinueOnError)
	fs.BoolVar(&version, "version", false, "print the version and exit")
	fs.StringVar(&cfg.role, "role", "", "client, server or origin")
	fs.StringVar(&cfg.caseName, "case", "", "conversion `case` to play or check (bench: the client's benchmark)")
	fs.StringVar(&cfg.target, "target", "", "client: `host:port` to call")
	fs.StringVar(&cfg.listen, "listen", "", "server, origin: listen `address` (default :443 server, :80 origin)")
	fs.StringVar(&cfg.logPath, "log", "", "append JSON lines (requests seen, the client's verdict) to `file`")
	fs.StringVar(&cfg.observedPath, "observed", "", "server: write what the gRPC server saw of each call to `file` (JSON lines, internal/observed)")
	fs.DurationVar(&cfg.rtt, "rtt", 0, "the network's round trip; time checks allow 10 of them")
	fs.Float64Var(&cfg.benchSeconds, "bench-seconds", 5, "bench: `seconds` per measurement")
	fs.StringVar(&cfg.benchOut, "bench-out", "/logs/bench.json", "bench: write the metrics as JSON lines to `file`")
	if usage, err = cmdflags.Parse(fs, args, "usage: grpcweb-probe --role client|server|origin --case NAME [flags]"); err != nil {
		return cfg, false, usage, err
	}
	if version {
		return cfg, true, usage, nil
	}
	return cfg, false, usage, cfg.check()
}

// check validates the combinations and fills in per-role defaults.
func (c *config) check() error {
	switch c.role {
	case roleClient:
		if c.observedPath != "" {
			return errors.New("--observed: server role only (the gRPC server behind the chain observes)")
		}
		if c.target == "" {
			return errors.New("--target: required for the client role (host:port)")
		}
		if !strings.Contains(c.target, ":") {
			return fmt.Errorf("--target: want host:port, got %q", c.target)
		}
	case roleServer:
		if c.listen == "" {
			c.listen = ":443"
		}
	case roleOrigin:
		if c.listen == "" {
			c.listen = ":80"
		}
		if c.observedPath != "" {
			return errors.New("--observed: server role only (the gRPC server behind the chain observes)")
		}
	default:
		return fmt.Errorf("--role: want client, server or origin, got %q", c.role)
	}
	if c.caseName == "" {
		return errors.New("--case: required")
	}
	if _, ok := cases[c.caseName]; !ok && c.caseName != benchCase {
		return fmt.Errorf("--case: unknown case %q", c.caseName)
	}
	if c.rtt < 0 {
		return fmt.Errorf("--rtt: want a duration >= 0, got %v", c.rtt)
	}
	if c.benchSeconds <= 0 {
		return fmt.Errorf("--bench-seconds: want a number > 0, got %v", c.benchSeconds)
	}
	return nil
}
