package main

import (
	"crypto/tls"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

// newServer is the client-facing server: HTTP/2 only for edge mode (TLS with ALPN h2, or h2c with
// prior knowledge), HTTP/1.1 only for origin mode (cleartext, or TLS with --cert).
//
// It sets no ReadTimeout or WriteTimeout: they bound a whole request and would kill long-lived
// streams (improbable-eng/grpc-web#171). IdleTimeout only closes connections without a request in
// flight (HTTP/1.1) or without an open stream (HTTP/2); ReadHeaderTimeout only bounds headers.
func newServer(cfg config, h http.Handler) (*http.Server, error) {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    cfg.maxHeaderBytes,
		Protocols:         new(http.Protocols),
		ErrorLog:          log.New(os.Stderr, "grpcweb-converter: ", log.LstdFlags),
	}
	switch {
	case cfg.mode == modeEdge && cfg.h2c:
		srv.Protocols.SetUnencryptedHTTP2(true)
	case cfg.mode == modeEdge:
		srv.Protocols.SetHTTP2(true)
	default:
		srv.Protocols.SetHTTP1(true)
	}
	if cfg.certFile != "" {
		cert, err := tls.LoadX509KeyPair(cfg.certFile, cfg.keyFile)
		if err != nil {
			return nil, fmt.Errorf("--cert/--key: %v", err)
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	return srv, nil
}

// serve accepts on ln until srv is shut down.
func serve(srv *http.Server, ln net.Listener) error {
	if srv.TLSConfig != nil {
		return srv.ServeTLS(ln, "", "") // ALPN protocols follow srv.Protocols
	}
	return srv.Serve(ln)
}
