// Command h2check runs wirelab's HTTP/2 flow-control conformance cases (conformance/h2) against a
// server over TLS and writes a JSON report of the verdicts.
//
//	h2check -addr server4:443 -servername server -ca /certs/ca.pem -out /logs/report.json
//
// Exit status: 0 the report was written (the verdicts are in it), 1 the server could not be
// reached over TLS with ALPN h2 (or the report not written), 2 bad input (one line naming the
// flag).
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/conformance/h2"
	"github.com/wirelab/wirelab/conformance/h2/h2tls"
	"github.com/wirelab/wirelab/internal/jsonfile"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// probeTimeout bounds the first connection, before any case runs (times the -timeout scale).
const probeTimeout = 10 * time.Second

// config is what the flags resolve to.
type config struct {
	target *h2.Target
	cases  []h2.Case
	out    string
	keylog *os.File
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "h2check: %v\n", err)
		return 2
	}
	if cfg.keylog != nil {
		defer cfg.keylog.Close()
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(float64(probeTimeout)*cfg.target.TimeScale))
	err = h2.Probe(ctx, cfg.target)
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "h2check: cannot connect to %s over TLS with ALPN h2: %v\n", cfg.target.Addr, err)
		return 1
	}

	start := time.Now()
	verdicts := h2.Run(context.Background(), cfg.target, cfg.cases)
	rep := newReport(cfg.target, start, verdicts)
	for _, v := range verdicts {
		name := v.Case
		if v.Skip != "" {
			name += " [" + v.Skip + "]"
		}
		fmt.Fprintf(stdout, "%-7s %s: %s\n", v.Result, name, v.Reason)
	}
	// Atomic: a reader never sees half a report.
	if err := jsonfile.Write(cfg.out, rep); err != nil {
		fmt.Fprintf(stderr, "h2check: writing the report: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "h2check: %d passed, %d failed, %d skipped; report in %s\n",
		rep.Summary[h2.Passed], rep.Summary[h2.Failed], rep.Summary[h2.Skipped], cfg.out)
	return 0
}

// parseFlags validates every flag; errors are one line starting with the flag's name.
func parseFlags(args []string, stdout io.Writer) (*config, error) {
	fs := flag.NewFlagSet("h2check", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line by the caller
	var (
		addr       = fs.String("addr", "", "server `host:port` (required)")
		serverName = fs.String("servername", "", "TLS server name (default: the host of -addr)")
		insecure   = fs.Bool("insecure", false, "do not verify the server certificate")
		caFile     = fs.String("ca", "", "PEM `file` of the CA the server certificate must chain to (default: system roots)")
		caseList   = fs.String("cases", "all", "comma list of case names or section prefixes (6.9 selects 6.9.*)")
		out        = fs.String("out", "report.json", "report `file`")
		keylog     = fs.String("keylog", "", "append TLS secrets to `file` in SSLKEYLOGFILE format")
		scale      = fs.Float64("timeout", 1, "`scale` for every case's timeout (2 doubles them)")
	)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "usage: h2check -addr host:port [flags]")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return nil, err
		}
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (flags only)", fs.Arg(0))
	}

	host, port, err := net.SplitHostPort(*addr)
	if p, perr := strconv.Atoi(port); *addr == "" || err != nil || host == "" || perr != nil || p < 1 || p > 65535 {
		return nil, fmt.Errorf("-addr: want host:port, got %q", *addr)
	}
	if *scale <= 0 || *scale > 100 {
		return nil, fmt.Errorf("-timeout: scale must be in (0, 100], got %v", *scale)
	}
	all, err := h2.Cases()
	if err != nil {
		return nil, err
	}
	cases, err := h2.Select(all, *caseList)
	if err != nil {
		names := make([]string, len(all))
		for i, c := range all {
			names[i] = c.Name
		}
		return nil, fmt.Errorf("-cases: %v (known: all, %s)", err, strings.Join(names, ", "))
	}

	tlsConf, err := h2tls.ClientConfig(cmp.Or(*serverName, host), *caFile, *insecure)
	if err != nil {
		return nil, err
	}
	if *out == "" {
		return nil, errors.New("-out: empty file name")
	}
	if err := checkWritable(*out); err != nil {
		return nil, fmt.Errorf("-out: %v", err)
	}

	cfg := &config{
		target: &h2.Target{Addr: *addr, TLS: tlsConf, TimeScale: *scale},
		cases:  cases,
		out:    *out,
	}
	if *keylog != "" {
		f, err := os.OpenFile(*keylog, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("-keylog: %v", err)
		}
		cfg.keylog, cfg.target.KeyLog = f, f
	}
	return cfg, nil
}
