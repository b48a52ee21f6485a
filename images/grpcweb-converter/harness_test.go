package main

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/wirelab/wirelab/internal/certs"
)

// startConverter runs the converter in-process on a loopback port with the given flags.
func startConverter(t *testing.T, args ...string) string {
	t.Helper()
	cfg, _, _, err := parseFlags(append([]string{"--listen", "127.0.0.1:0"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	events, closeLog, err := openEventLog(cfg.logPath)
	if err != nil {
		t.Fatal(err)
	}
	h, err := newConverter(cfg, events)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := newServer(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		t.Fatal(err)
	}
	go serve(srv, ln)
	t.Cleanup(func() {
		srv.Close()
		h.rt.(*http.Transport).CloseIdleConnections()
		closeLog.Close()
	})
	return ln.Addr().String()
}

// startGRPCServer serves svc (the interop test server if nil) on a loopback port.
func startGRPCServer(t *testing.T, svc testgrpc.TestServiceServer, opts ...grpc.ServerOption) string {
	t.Helper()
	if svc == nil {
		svc = interop.NewTestServer()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(opts...)
	testgrpc.RegisterTestServiceServer(s, svc)
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	return ln.Addr().String()
}

// chain is grpc client -> edge (HTTP/2) -> origin (HTTP/1.1 gRPC-web) -> grpc server (HTTP/2).
type chain struct {
	text, tls            bool
	server               testgrpc.TestServiceServer // nil: the interop test server
	edgeArgs, originArgs []string
	edgeAddr, originAddr string
	serverAddr, caFile   string
}

// start runs the three servers and returns a client connection to the edge.
func (c *chain) start(t *testing.T) *grpc.ClientConn {
	t.Helper()
	clientCreds := insecure.NewCredentials()
	var serverOpts []grpc.ServerOption
	edge := []string{"--mode", "edge"}
	origin := []string{"--mode", "origin"}
	if c.tls {
		dir := t.TempDir()
		if err := certs.Write(dir); err != nil {
			t.Fatal(err)
		}
		c.caFile = filepath.Join(dir, "ca.pem")
		cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "priv.key")
		sc, err := credentials.NewServerTLSFromFile(cert, key)
		if err != nil {
			t.Fatal(err)
		}
		serverOpts = append(serverOpts, grpc.Creds(sc))
		if clientCreds, err = credentials.NewClientTLSFromFile(c.caFile, "server"); err != nil {
			t.Fatal(err)
		}
		tlsArgs := []string{"--cert", cert, "--key", key, "--upstream-ca", c.caFile, "--upstream-server-name", "server"}
		edge, origin = append(edge, tlsArgs...), append(origin, tlsArgs...)
	} else {
		edge = append(edge, "--h2c")
	}
	if c.text {
		edge = append(edge, "--text")
	}
	scheme := "http://"
	if c.tls {
		scheme = "https://"
	}
	c.serverAddr = startGRPCServer(t, c.server, serverOpts...)
	c.originAddr = startConverter(t, append(append(origin, "--upstream", scheme+c.serverAddr), c.originArgs...)...)
	c.edgeAddr = startConverter(t, append(append(edge, "--upstream", scheme+c.originAddr), c.edgeArgs...)...)
	cc, err := grpc.NewClient(c.edgeAddr, grpc.WithTransportCredentials(clientCreds))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return cc
}

// testContext bounds a test's calls so a stall fails instead of hanging the package.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// noProxyTransport talks to loopback test servers directly: HTTP/1.1, or h2c when h2c is set.
func noProxyTransport(h2c bool) *http.Transport {
	t := &http.Transport{Proxy: nil, Protocols: new(http.Protocols), DisableCompression: true}
	if h2c {
		t.Protocols.SetUnencryptedHTTP2(true)
	} else {
		t.Protocols.SetHTTP1(true)
	}
	return t
}
