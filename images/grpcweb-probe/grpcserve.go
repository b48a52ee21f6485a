package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"google.golang.org/grpc"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
)

// serveGRPC runs the server role of a case played by a real grpc-go server (its own HTTP/2
// transport over cleartext TCP, as grpc-go serves in production) until ctx ends. What the server
// saw goes to cfg.observedPath when set (internal/observed); the calls still open at the stop are
// recorded as such before the server stops, so the file is complete once the process has exited.
func serveGRPC(ctx context.Context, cfg config, pc probeCase, stdout, stderr io.Writer) int {
	log, closeLog, err := openLog(cfg.logPath, cfg.role, cfg.caseName)
	if err != nil {
		fmt.Fprintf(stderr, "grpcweb-probe: --log: %v\n", err)
		return 2
	}
	defer closeLog.Close()
	var out io.Writer
	if cfg.observedPath != "" {
		f, err := os.OpenFile(cfg.observedPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "grpcweb-probe: --observed: %v\n", err)
			return 2
		}
		defer f.Close()
		out = f
	}
	obs := newObserver(cfg.caseName, out)
	srv := newGRPCServer(pc, obs, log)
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		fmt.Fprintf(stderr, "grpcweb-probe: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "grpcweb-probe: %s (grpc-go) playing %s on %s\n", cfg.role, cfg.caseName, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "grpcweb-probe: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	obs.stop() // before the stop cancels the calls still open
	srv.Stop()
	return 0
}

// newGRPCServer is the case's grpc-go server; it logs every call it served to log.
func newGRPCServer(pc probeCase, obs *observer, log *requestLog) *grpc.Server {
	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		defer logCall(log, ctx, info.FullMethod, time.Now())
		return h(ctx, req)
	}), grpc.ChainStreamInterceptor(func(s any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		defer logCall(log, ss.Context(), info.FullMethod, time.Now())
		return h(s, ss)
	}))
	testgrpc.RegisterTestServiceServer(srv, pc.grpc(obs))
	return srv
}

// logCall writes the request a call came with, as the HTTP roles log theirs.
func logCall(log *requestLog, ctx context.Context, method string, start time.Time) {
	md, _ := metadata.FromIncomingContext(ctx)
	log.write(logEntry{Method: "POST", Path: method, Proto: "HTTP/2.0", Headers: map[string][]string(md),
		DurationMS: float64(time.Since(start).Microseconds()) / 1000}, start)
}
