package main

import (
	"errors"
	"flag"
	"fmt"
	"net/url"

	"github.com/wirelab/wirelab/internal/cmdflags"
	"github.com/wirelab/wirelab/internal/grpcweb"
)

const (
	modeEdge   = "edge"   // HTTP/2 gRPC in, HTTP/1.1 gRPC-web out
	modeOrigin = "origin" // HTTP/1.1 gRPC-web in, HTTP/2 gRPC out
)

// config is what the flags resolve to.
type config struct {
	mode               string
	listen             string
	upstream           *url.URL
	h2c                bool
	certFile, keyFile  string
	upstreamCA         string
	upstreamServerName string
	text               bool
	maxMessageBytes    int
	maxHeaderBytes     int
	logPath            string // "" no log, "-" or "stderr" standard error, else a file
	misbehave          misbehaviour
}

// parseFlags validates every flag; each error is one line naming the flag. version is true for
// --version (nothing else is validated then).
func parseFlags(args []string) (cfg config, version bool, usage string, err error) {
	fs := flag.NewFlagSet("grpcweb-converter", flag.ContinueOnError)
	var (
		mode      = fs.String("mode", "", "edge (HTTP/2 gRPC -> HTTP/1.1 gRPC-web) or origin (HTTP/1.1 gRPC-web -> HTTP/2 gRPC)")
		listen    = fs.String("listen", "", "listen `address` (default :8443 edge, :8080 origin)")
		upstream  = fs.String("upstream", "", "upstream `URL`: http://host:port or https://host:port")
		misbehave = fs.String("misbehave", "none", "TEST-ONLY: reproduce a converter bug: "+misbehaviourList())
	)
	fs.BoolVar(&version, "version", false, "print the version and exit")
	fs.BoolVar(&cfg.h2c, "h2c", false, "edge: serve cleartext HTTP/2 (prior knowledge) instead of TLS")
	fs.StringVar(&cfg.certFile, "cert", "", "PEM certificate `file` to serve TLS with")
	fs.StringVar(&cfg.keyFile, "key", "", "PEM private key `file` for --cert")
	fs.StringVar(&cfg.upstreamCA, "upstream-ca", "", "PEM CA `file` for an https upstream (default: system roots)")
	fs.StringVar(&cfg.upstreamServerName, "upstream-server-name", "", "TLS server `name` to verify for an https upstream (default: its host)")
	fs.BoolVar(&cfg.text, "text", false, "edge: send application/grpc-web-text instead of binary grpc-web")
	fs.IntVar(&cfg.maxMessageBytes, "max-message-bytes", grpcweb.DefaultMaxMessageBytes, "largest message `bytes` either way; larger ones end the stream with RESOURCE_EXHAUSTED")
	fs.IntVar(&cfg.maxHeaderBytes, "max-header-bytes", 1<<20, "largest header block `bytes` accepted from clients and upstreams")
	fs.StringVar(&cfg.logPath, "log", "", "write JSON lines of per-request events to `file` (- or stderr: standard error)")
	if usage, err = cmdflags.Parse(fs, args, "usage: grpcweb-converter --mode edge|origin --upstream URL [flags]"); err != nil {
		return cfg, false, usage, err
	}
	if version {
		return cfg, true, usage, nil
	}
	cfg.mode, cfg.listen = *mode, *listen
	if cfg.misbehave, err = parseMisbehaviour(*misbehave); err != nil {
		return cfg, false, usage, fmt.Errorf("--misbehave: %v", err)
	}
	if cfg.upstream, err = parseUpstream(*upstream); err != nil {
		return cfg, false, usage, fmt.Errorf("--upstream: %v", err)
	}
	return cfg, false, usage, cfg.check()
}

func parseUpstream(s string) (*url.URL, error) {
	if s == "" {
		return nil, errors.New("required (http://host:port or https://host:port)")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return nil, fmt.Errorf("want http://host:port or https://host:port, got %q", s)
	}
	u.Path = ""
	return u, nil
}

// check validates the combinations and fills in per-mode defaults.
func (c *config) check() error {
	switch c.mode {
	case modeEdge:
		if c.listen == "" {
			c.listen = ":8443"
		}
		if c.h2c && c.certFile != "" {
			return errors.New("--h2c: cannot be combined with --cert/--key (one listener is either TLS or cleartext)")
		}
		if !c.h2c && c.certFile == "" {
			return errors.New("--cert: edge mode needs --cert and --key, or --h2c")
		}
	case modeOrigin:
		if c.listen == "" {
			c.listen = ":8080"
		}
		if c.h2c {
			return errors.New("--h2c: edge mode only (origin serves HTTP/1.1; an http:// --upstream already means h2c)")
		}
		if c.text {
			return errors.New("--text: edge mode only (origin answers in the content type family of each request)")
		}
	default:
		return fmt.Errorf("--mode: want edge or origin, got %q", c.mode)
	}
	if (c.certFile == "") != (c.keyFile == "") {
		if c.keyFile == "" {
			return errors.New("--key: required with --cert")
		}
		return errors.New("--cert: required with --key")
	}
	if c.upstreamCA != "" && c.upstream.Scheme != "https" {
		return errors.New("--upstream-ca: needs an https:// --upstream")
	}
	if c.upstreamServerName != "" && c.upstream.Scheme != "https" {
		return errors.New("--upstream-server-name: needs an https:// --upstream")
	}
	if c.maxMessageBytes <= 0 {
		return fmt.Errorf("--max-message-bytes: want a positive number, got %d", c.maxMessageBytes)
	}
	if c.maxHeaderBytes <= 0 {
		return fmt.Errorf("--max-header-bytes: want a positive number, got %d", c.maxHeaderBytes)
	}
	return nil
}
