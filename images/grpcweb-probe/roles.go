package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// serveRole runs the server or origin role until ctx ends (SIGTERM): 0 after a clean stop, 1 if
// serving failed, 2 for an unusable --log, 127 if the role has no part in the case.
func serveRole(ctx context.Context, cfg config, stdout, stderr io.Writer) int {
	if pc := cases[cfg.caseName]; cfg.role == roleServer && pc.grpc != nil {
		return serveGRPC(ctx, cfg, pc, stdout, stderr)
	}
	h, down := cases[cfg.caseName].part(cfg.role)
	switch {
	case down: // a refusing upstream: the container runs, nothing listens
		fmt.Fprintf(stdout, "not listening: case %s\n", cfg.caseName)
		<-ctx.Done()
		return 0
	case h == nil:
		fmt.Fprintf(stdout, "role %s plays nothing in case %s\n", cfg.role, cfg.caseName)
		return 127
	}
	log, closeLog, err := openLog(cfg.logPath, cfg.role, cfg.caseName)
	if err != nil {
		fmt.Fprintf(stderr, "grpcweb-probe: --log: %v\n", err)
		return 2
	}
	defer closeLog.Close()
	srv := newRoleServer(cfg.role, log.wrap(h))
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		fmt.Fprintf(stderr, "grpcweb-probe: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "grpcweb-probe: %s playing %s on %s\n", cfg.role, cfg.caseName, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "grpcweb-probe: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if srv.Shutdown(shutdown) != nil {
		srv.Close() // streams still open after the grace period
	}
	return 0
}

// newRoleServer serves h as the role speaks: the server cleartext HTTP/2 with prior knowledge
// (gRPC), the origin HTTP/1.1 (gRPC-web). No read or write timeout: they would cut the long
// stream the probe itself plays.
func newRoleServer(role string, h http.Handler) *http.Server {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second, Protocols: new(http.Protocols)}
	if role == roleServer {
		srv.Protocols.SetUnencryptedHTTP2(true)
	} else {
		srv.Protocols.SetHTTP1(true)
	}
	return srv
}
