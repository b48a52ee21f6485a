package main

import (
	"io"
	"net/http"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// upstream_html_503_unavailable: an upstream answering a plain HTTP 503 error page (no gRPC
// status) reaches the client as UNAVAILABLE, per grpc/grpc doc/http-grpc-status-mapping.md
// (envoy#13831).

const html503Body = "<html><head><title>503 Service Unavailable</title></head>" +
	"<body><h1>503 Service Unavailable</h1><p>wirelab-probe: the upstream is overloaded.</p></body></html>\n"

func html503Server() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, html503Body)
	})
}

func checkHTML503(c *checker) error {
	return c.unaryWantStatus("UnaryCall; the server answers HTTP 503 text/html, expecting UNAVAILABLE",
		&testpb.SimpleRequest{ResponseSize: 10}, codes.Unavailable, "")
}
