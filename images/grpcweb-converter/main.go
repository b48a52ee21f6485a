package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/wirelab/wirelab/internal/cmdflags"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is main without the exit: 0 after a clean shutdown, 1 if serving failed, 2 for bad flags.
func run(args []string, stdout, stderr io.Writer) int {
	cfg, version, usage, err := parseFlags(args)
	if code, exit := cmdflags.Settle("grpcweb-converter", usage, err, stdout, stderr); exit {
		return code
	}
	if version {
		fmt.Fprintln(stdout, "wirelab grpcweb-converter", runtime.Version())
		return 0
	}
	events, closeLog, err := openEventLog(cfg.logPath)
	if err != nil {
		fmt.Fprintf(stderr, "grpcweb-converter: --log: %v\n", err)
		return 2
	}
	defer closeLog.Close()
	h, err := newConverter(cfg, events)
	if err != nil {
		fmt.Fprintf(stderr, "grpcweb-converter: %v\n", err)
		return 2
	}
	srv, err := newServer(cfg, h)
	if err != nil {
		fmt.Fprintf(stderr, "grpcweb-converter: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		fmt.Fprintf(stderr, "grpcweb-converter: %v\n", err)
		return 1
	}
	if cfg.misbehave != behaveCorrectly {
		fmt.Fprintf(stderr, "grpcweb-converter: TEST-ONLY misbehaviour %s enabled\n", cfg.misbehave)
	}
	fmt.Fprintf(stderr, "grpcweb-converter: %s mode on %s, upstream %s\n", cfg.mode, ln.Addr(), cfg.upstream)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- serve(srv, ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "grpcweb-converter: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		srv.Close() // streams still open after the grace period
	}
	return 0
}
