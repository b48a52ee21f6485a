// Command grpcweb-probe is the gRPC-web suite's conversion-case probe. Each case guards against
// one real converter bug: the server (h2c gRPC) or origin (HTTP/1.1 gRPC-web) role plays the
// quirk that provokes it, the client role checks what arrived through the chain. cases.go lists
// the cases; the client's bench case measures a chain's latency and throughput.
//
//	grpcweb-probe --role client --case NAME --target host:port [--rtt 40ms] [--log file]
//	grpcweb-probe --role server|origin --case NAME [--listen addr] [--log file]
//
// Client exit status: 0 passed, 1 failed (last line "FAIL: ..."), 2 bad flags, 127 the case
// does not apply. Server and origin run until SIGTERM (exit 0); 127 when they play no part.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/wirelab/wirelab/internal/cmdflags"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the exit; ctx ends the server and origin roles.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, version, usage, err := parseFlags(args)
	if code, exit := cmdflags.Settle("grpcweb-probe", usage, err, stdout, stderr); exit {
		return code
	}
	switch {
	case version:
		fmt.Fprintln(stdout, "wirelab grpcweb-probe", runtime.Version())
		return 0
	case cfg.role != roleClient:
		return serveRole(ctx, cfg, stdout, stderr)
	}
	log, closeLog, err := openLog(cfg.logPath, cfg.role, cfg.caseName)
	if err != nil {
		fmt.Fprintf(stderr, "grpcweb-probe: --log: %v\n", err)
		return 2
	}
	defer closeLog.Close()
	start := time.Now()
	c := &checker{target: cfg.target, rtt: cfg.rtt, out: stdout}
	fmt.Fprintf(stdout, "grpcweb-probe: case %s against %s (rtt %v)\n", cfg.caseName, cfg.target, cfg.rtt)
	if cfg.caseName == benchCase {
		err = runBench(ctx, c, cfg)
	} else {
		err = cases[cfg.caseName].check(c)
	}
	code := verdict(stdout, cfg.caseName, err)
	detail := ""
	if err != nil {
		detail = err.Error()
	}
	log.write(logEntry{Exit: &code, Detail: detail, DurationMS: float64(time.Since(start).Microseconds()) / 1000}, start)
	return code
}
