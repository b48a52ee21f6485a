package h2tls

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"

	"golang.org/x/net/http2"
)

// Config is base (nil: the defaults) made ready for one connection to addr. It is a copy, so a
// config shared by many connections stays untouched; it offers only alpn, logs the secrets to
// keyLog when set (nil keeps base's), and names addr's host when base names no server.
func Config(base *tls.Config, addr string, keyLog io.Writer, alpn string) *tls.Config {
	conf := &tls.Config{}
	if base != nil {
		conf = base.Clone()
	}
	conf.NextProtos = []string{alpn}
	if keyLog != nil {
		conf.KeyLogWriter = keyLog
	}
	if conf.ServerName == "" {
		conf.ServerName, _, _ = net.SplitHostPort(addr)
	}
	return conf
}

// Dial connects to addr through nd (nil: a plain net.Dialer) and completes the handshake.
func Dial(ctx context.Context, nd *net.Dialer, addr string, conf *tls.Config) (*tls.Conn, error) {
	d := tls.Dialer{NetDialer: nd, Config: conf}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return nc.(*tls.Conn), nil
}

// DialH2 is Dial offering h2 only, and fails unless the server selected it: the raw-frame
// clients speak nothing else.
func DialH2(ctx context.Context, nd *net.Dialer, addr string, base *tls.Config, keyLog io.Writer) (*tls.Conn, error) {
	tc, err := Dial(ctx, nd, addr, Config(base, addr, keyLog, http2.NextProtoTLS))
	if err != nil {
		return nil, err
	}
	if p := tc.ConnectionState().NegotiatedProtocol; p != http2.NextProtoTLS {
		tc.Close()
		return nil, fmt.Errorf("ALPN: server selected %q, not h2", p)
	}
	return tc, nil
}
