package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// newTLSConfig builds the TLS settings every repetition starts from (ALPN is set per protocol).
// No session cache: each repetition pays a full handshake, outside the timing, as a new client
// would.
func newTLSConfig(c config) (*tls.Config, func(), error) {
	conf := &tls.Config{ServerName: c.serverName, InsecureSkipVerify: c.insecure, MinVersion: tls.VersionTLS12}
	if c.caFile != "" {
		pem, err := os.ReadFile(c.caFile)
		if err != nil {
			return nil, nil, fmt.Errorf("-ca: %v", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, nil, fmt.Errorf("-ca %s: no PEM certificate in it", c.caFile)
		}
		conf.RootCAs = pool
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

// dialTLS opens a new TCP connection and completes the TLS handshake offering only alpn.
func dialTLS(ctx context.Context, addr string, base *tls.Config, alpn string) (*tls.Conn, error) {
	conf := base.Clone()
	conf.NextProtos = []string{alpn}
	d := tls.Dialer{Config: conf}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, &connectError{err}
	}
	return nc.(*tls.Conn), nil
}
