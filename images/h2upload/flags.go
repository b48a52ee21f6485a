package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/wirelab/wirelab/conformance/h2/h2tls"
)

// config is the parsed command line.
type config struct {
	addr       string // host:port to dial
	serverName string // TLS SNI and certificate name; also the request's authority
	caFile     string
	insecure   bool
	proto      string // "h2" or "h1"
	size       int64
	reps       int
	out        string
	keylog     string
	timeout    time.Duration // per repetition, TLS handshake included
}

// parseFlags reads args. Every error is one line that names the flag; usage is the help text
// for -h.
func parseFlags(args []string) (config, string, error) {
	var c config
	fs := flag.NewFlagSet("h2upload", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by the caller, in one line
	fs.StringVar(&c.addr, "addr", "", "server `host:port` (TLS, ALPN h2 and http/1.1)")
	fs.StringVar(&c.serverName, "servername", "", "TLS server name and request authority (default: the host of -addr)")
	fs.StringVar(&c.caFile, "ca", "", "PEM `file` of the CA that signed the server's certificate")
	fs.BoolVar(&c.insecure, "insecure", false, "do not verify the server's certificate")
	fs.StringVar(&c.proto, "proto", "h2", "h2 or h1 (HTTP/1.1)")
	fs.Int64Var(&c.size, "size", 10_000_000, "request body `bytes`")
	fs.IntVar(&c.reps, "reps", 5, "repetitions, each on a new connection")
	fs.StringVar(&c.out, "out", "result.json", "result `file`")
	fs.StringVar(&c.keylog, "keylog", "", "append TLS secrets to `file` (SSLKEYLOGFILE format)")
	fs.DurationVar(&c.timeout, "timeout", 120*time.Second, "limit per repetition")

	var help strings.Builder
	fs.SetOutput(&help)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	usage := "usage: h2upload -addr host:port [flags]\n" + help.String()

	if err := fs.Parse(args); err != nil {
		return c, usage, err // the flag package's message names the flag
	}
	if fs.NArg() > 0 {
		return c, usage, fmt.Errorf("unexpected argument %q: every setting is a flag", fs.Arg(0))
	}
	return c, usage, c.validate()
}

func (c *config) validate() error {
	if c.addr == "" {
		return fmt.Errorf("-addr is required (host:port)")
	}
	host, port, err := net.SplitHostPort(c.addr)
	if err != nil || host == "" || port == "" {
		return fmt.Errorf("-addr %q: want host:port", c.addr)
	}
	if c.serverName == "" {
		c.serverName = host
	}
	switch {
	case c.proto != "h2" && c.proto != "h1":
		return fmt.Errorf("-proto %q: want h2 or h1", c.proto)
	case c.size <= 0:
		return fmt.Errorf("-size %d: want a positive number of bytes", c.size)
	case c.reps <= 0:
		return fmt.Errorf("-reps %d: want at least 1", c.reps)
	case c.timeout <= 0:
		return fmt.Errorf("-timeout %v: want a positive duration", c.timeout)
	case c.out == "":
		return fmt.Errorf("-out is empty: want a file name")
	}
	return nil
}

// authority is the request's :authority / Host: the server name, with the port unless it is 443.
func (c *config) authority() string { return h2tls.Authority(c.addr, c.serverName) }
