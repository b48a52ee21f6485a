package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"

	"golang.org/x/net/http2"
)

// h2cTransport is an HTTP/2 client with prior knowledge over cleartext TCP.
func h2cTransport() *http2.Transport {
	return &http2.Transport{AllowHTTP: true, DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
}

// rawH2Call posts a gRPC body to path on target over h2c (prior knowledge) with x/net's HTTP/2
// Transport rather than grpc-go, so the response's headers, body bytes and trailers can be
// checked as they came. The request has no content-length, as gRPC clients send it (NopCloser
// hides the body's length from net/http).
func rawH2Call(ctx context.Context, target, path string, body []byte) (*http.Response, []byte, error) {
	tr := h2cTransport()
	defer tr.CloseIdleConnections()
	header := http.Header{"Content-Type": {"application/grpc"}, "Te": {"trailers"}}
	return post(ctx, tr, target, path, header, io.NopCloser(bytes.NewReader(body)))
}
