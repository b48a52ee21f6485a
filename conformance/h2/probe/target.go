package probe

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"syscall"

	"golang.org/x/net/http2"
)

// Target is the one server every probe is aimed at.
type Target struct {
	Addr   string      // host:port, the only address any connection goes to
	TLS    *tls.Config // server name and trust; ALPN is set to h2 here
	KeyLog io.Writer   // TLS secrets in SSLKEYLOGFILE format; nil: none
}

// authority is the requests' :authority: the TLS server name, with the port unless 443.
func (t *Target) authority() string {
	host, port, _ := net.SplitHostPort(t.Addr)
	if t.TLS != nil && t.TLS.ServerName != "" {
		host = t.TLS.ServerName
	}
	if port == "443" || port == "" {
		return host
	}
	return net.JoinHostPort(host, port)
}

// dial opens a TLS connection that negotiated h2. readBuffer > 0 shrinks the socket's receive
// buffer before the handshake (so the TCP window is small from the first segment).
func (t *Target) dial(ctx context.Context, readBuffer int) (*tls.Conn, error) {
	cfg := &tls.Config{}
	if t.TLS != nil {
		cfg = t.TLS.Clone()
	}
	cfg.NextProtos = []string{http2.NextProtoTLS}
	if t.KeyLog != nil {
		cfg.KeyLogWriter = t.KeyLog
	}
	if cfg.ServerName == "" {
		cfg.ServerName, _, _ = net.SplitHostPort(t.Addr)
	}
	nd := &net.Dialer{}
	if readBuffer > 0 {
		nd.Control = func(_, _ string, rc syscall.RawConn) error { return setReadBuffer(rc, readBuffer) }
	}
	d := tls.Dialer{NetDialer: nd, Config: cfg}
	nc, err := d.DialContext(ctx, "tcp", t.Addr)
	if err != nil {
		return nil, err
	}
	tc := nc.(*tls.Conn)
	if p := tc.ConnectionState().NegotiatedProtocol; p != http2.NextProtoTLS {
		tc.Close()
		return nil, fmt.Errorf("ALPN: server selected %q, not h2", p)
	}
	return tc, nil
}

// Reachable checks that the target accepts TLS with ALPN h2 at all.
func Reachable(ctx context.Context, t *Target) error {
	tc, err := t.dial(ctx, 0)
	if err != nil {
		return err
	}
	return tc.Close()
}
