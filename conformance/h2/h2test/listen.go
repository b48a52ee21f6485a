package h2test

import (
	"crypto/tls"
	"net"
	"testing"
)

// ServerTLS serves the test certificate with ALPN h2.
func ServerTLS() *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{TestCert().TLS}, NextProtos: []string{"h2"}}
}

// ListenTLS listens on a loopback port with ServerTLS until the test ends. Accept returns
// *tls.Conn not yet handshaken, so a server can still set deadlines or socket options first.
func ListenTLS(t testing.TB) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return tls.NewListener(ln, ServerTLS())
}
