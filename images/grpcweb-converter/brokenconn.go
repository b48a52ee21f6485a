package main

import (
	"crypto/tls"
	"net"
	"sync"
)

// brokenConn tells the call on an upstream HTTP/1.1 connection when the connection broke (a
// read error: the upstream's FIN or reset). Go's HTTP/1 transport reports a broken connection
// only after the request body's writer returns, and a full-duplex call's body waits for the
// client, who waits for an answer: without this an upstream that closed without answering
// (grpcwebproxy at its 10 s write timeout) left the call hanging until the client's deadline.
type brokenConn struct {
	net.Conn
	mu      sync.Mutex
	broke   bool
	onBreak func()
}

func (c *brokenConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		c.mu.Lock()
		f := c.onBreak
		c.broke, c.onBreak = true, nil
		c.mu.Unlock()
		if f != nil {
			f()
		}
	}
	return n, err
}

// watchBreak runs f once conn (a *brokenConn, possibly under TLS) breaks, at once if it already
// has; a connection the edge did not dial is not watched.
func watchBreak(conn net.Conn, f func()) {
	if tc, ok := conn.(*tls.Conn); ok {
		conn = tc.NetConn()
	}
	c, ok := conn.(*brokenConn)
	if !ok {
		return
	}
	c.mu.Lock()
	broke := c.broke
	if !broke {
		c.onBreak = f
	}
	c.mu.Unlock()
	if broke {
		f()
	}
}
