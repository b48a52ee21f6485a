package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"

	"github.com/wirelab/wirelab/conformance/h2/h2tls"
)

// newTLSConfig builds the TLS settings every repetition starts from (ALPN is set per protocol).
// No session cache: each repetition pays a full handshake, outside the timing, as a new client
// would.
func newTLSConfig(c config) (*tls.Config, func(), error) {
	conf, err := h2tls.ClientConfig(c.serverName, c.caFile, c.insecure)
	if err != nil {
		return nil, nil, err
	}
	closeKeylog := func() {}
	if c.keylog != "" {
		f, err := os.OpenFile(c.keylog, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("-keylog: %v", err)
		}
		conf.KeyLogWriter = f
		closeKeylog = func() { f.Close() }
	}
	return conf, closeKeylog, nil
}

// connectError is a failure to get a TLS connection at all (TCP or handshake): when the first
// repetition has one, the server is unreachable and the run stops.
type connectError struct{ err error }

func (e *connectError) Error() string { return "connecting: " + e.err.Error() }
func (e *connectError) Unwrap() error { return e.err }

// dialTLS opens a new TCP connection and completes the TLS handshake offering only alpn. Which
// protocol the server selected is the caller's to judge (h1 accepts none).
func dialTLS(ctx context.Context, addr string, base *tls.Config, alpn string) (*tls.Conn, error) {
	tc, err := h2tls.Dial(ctx, nil, addr, h2tls.Config(base, addr, nil, alpn))
	if err != nil {
		return nil, &connectError{err}
	}
	return tc, nil
}
