package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// newUpstreamTransport is the client for the upstream hop: HTTP/1.1 for edge mode (gRPC-web),
// HTTP/2 for origin mode (h2c with prior knowledge for http://, ALPN h2 for https://). It never
// uses an environment proxy and never compresses: the hop under test must be the real one.
func newUpstreamTransport(cfg config) (*http.Transport, error) {
	t := &http.Transport{
		Proxy:                  nil,
		DialContext:            (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:    10 * time.Second,
		DisableCompression:     true,
		MaxIdleConns:           256,
		MaxIdleConnsPerHost:    256, // HTTP/1.1 needs one connection per open stream
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: int64(cfg.maxHeaderBytes),
		Protocols:              new(http.Protocols),
	}
	https := cfg.upstream.Scheme == "https"
	switch {
	case cfg.mode == modeEdge:
		t.Protocols.SetHTTP1(true)
		dial := t.DialContext
		t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dial(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &brokenConn{Conn: c}, nil // the call learns when it breaks (brokenconn.go)
		}
	case https:
		t.Protocols.SetHTTP2(true)
	default:
		t.Protocols.SetUnencryptedHTTP2(true)
	}
	if https {
		conf := &tls.Config{ServerName: cfg.upstreamServerName, MinVersion: tls.VersionTLS12}
		if cfg.upstreamCA != "" {
			pem, err := os.ReadFile(cfg.upstreamCA)
			if err != nil {
				return nil, fmt.Errorf("--upstream-ca: %v", err)
			}
			conf.RootCAs = x509.NewCertPool()
			if !conf.RootCAs.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("--upstream-ca: no PEM certificate in %s", cfg.upstreamCA)
			}
		}
		t.TLSClientConfig = conf
	}
	return t, nil
}
