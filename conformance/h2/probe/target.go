package probe

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"syscall"

	"github.com/wirelab/wirelab/conformance/h2/h2tls"
)

// Target is the one server every probe is aimed at.
type Target struct {
	Addr   string      // host:port, the only address any connection goes to
	TLS    *tls.Config // server name and trust; ALPN is set to h2 here
	KeyLog io.Writer   // TLS secrets in SSLKEYLOGFILE format; nil: none
}

// authority is the requests' :authority: the TLS server name, with the port unless 443.
func (t *Target) authority() string {
	var name string
	if t.TLS != nil {
		name = t.TLS.ServerName
	}
	return h2tls.Authority(t.Addr, name)
}

// dial opens a TLS connection that negotiated h2. readBuffer > 0 shrinks the socket's receive
// buffer before the handshake (so the TCP window is small from the first segment).
func (t *Target) dial(ctx context.Context, readBuffer int) (*tls.Conn, error) {
	nd := &net.Dialer{}
	if readBuffer > 0 {
		nd.Control = func(_, _ string, rc syscall.RawConn) error { return setReadBuffer(rc, readBuffer) }
	}
	return h2tls.DialH2(ctx, nd, t.Addr, t.TLS, t.KeyLog)
}

// Reachable checks that the target accepts TLS with ALPN h2 at all.
func Reachable(ctx context.Context, t *Target) error {
	tc, err := t.dial(ctx, 0)
	if err != nil {
		return err
	}
	return tc.Close()
}
