// Command h2probe runs wirelab's HTTP/2 robustness probes (conformance/h2/probe) against one
// server over TLS and writes a JSON report: per probe, what the server did to the abusive
// connection and how a well-behaved client fared meanwhile.
//
//	h2probe -addr server4:443 -servername server -ca /certs/ca.pem -out /logs/report.json
//
// Every probe is bounded (probe.MaxFrames frames, probe.MaxDuration) and aimed at -addr only.
// Exit status: 0 the report was written (the verdicts are in it), 1 the server could not be
// reached over TLS with ALPN h2 or the report not written, 2 bad flags (one line naming the
// flag).
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/wirelab/wirelab/conformance/h2/probe"
	"github.com/wirelab/wirelab/internal/cmdflags"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	cfg, usage, err := parseFlags(args)
	if code, exit := cmdflags.Settle("h2probe", usage, err, stdout, stderr); exit {
		return code
	}
	if cfg.keylog != nil {
		defer cfg.keylog.Close()
	}

	ctx := context.Background()
	reach, cancel := context.WithTimeout(ctx, probe.HandshakeTimeout)
	err = probe.Reachable(reach, cfg.target)
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "h2probe: cannot connect to %s over TLS with ALPN h2: %v\n", cfg.target.Addr, err)
		return 1
	}

	// The report is rewritten after every probe: a runner that stops h2probe early still
	// finds the verdicts so far.
	rep := &probe.Report{}
	count := map[string]int{}
	for _, p := range cfg.probes {
		r := probe.Run(ctx, cfg.target, p, cfg.limits)
		rep.Probes = append(rep.Probes, r)
		count[r.Result]++
		fmt.Fprintf(stdout, "%-10s %-19s %s\n", r.Result, r.Probe, r.Reason)
		if err := rep.Write(cfg.out); err != nil {
			fmt.Fprintf(stderr, "h2probe: writing the report: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "h2probe: %d passed, %d failed, %d not judged (the machine too busy); report in %s\n",
		count[probe.Passed], count[probe.Failed], count[probe.NotJudged], cfg.out)
	return 0
}
