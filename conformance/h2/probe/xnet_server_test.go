package probe

import (
	"bytes"
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/net/http2"
)

// xnetOpts vary what is around x/net's server, never the server itself (always its defaults).
type xnetOpts struct {
	// abusiveWork is time each request of the abusive connection (its user-agent) spends in
	// the handler regardless of cancellation, as a slow backend call does: the handler
	// outlives its reset stream. The well-behaved client's requests are not slowed, so its
	// baseline stays short.
	abusiveWork time.Duration
	// sendBuffer > 0 fixes the server socket's send buffer. Loopback's 64 KiB MSS lets Linux
	// autotune it to megabytes, which swallow every ACK of a 20000-frame flood before the
	// server's own queue sees one; a path with a 1500-byte MTU gives tens of KiB.
	sendBuffer int
}

// xnetServer serves the lab's h2 contract (GET / and GET /1m.bin) with golang.org/x/net/http2's
// server on loopback.
func xnetServer(t *testing.T, o xnetOpts) *Target {
	t.Helper()
	ln, tlsConf, target := listenTLS(t)
	files := fstest.MapFS{
		"index.html": {Data: bytes.Repeat([]byte("wirelab "), 256)},
		"1m.bin":     {Data: make([]byte, 1<<20)},
	}
	fileServer := http.FileServerFS(files)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.UserAgent() == probeUserAgent {
			time.Sleep(o.abusiveWork)
		}
		fileServer.ServeHTTP(w, r)
	})
	h2 := &http2.Server{}
	quiet := &http.Server{ErrorLog: log.New(io.Discard, "", 0)} // its connection errors are expected
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if o.sendBuffer > 0 {
				c.(*net.TCPConn).SetWriteBuffer(o.sendBuffer)
			}
			go func(c net.Conn) {
				tc := tls.Server(c, tlsConf)
				if err := tc.Handshake(); err != nil {
					c.Close()
					return
				}
				h2.ServeConn(tc, &http2.ServeConnOpts{Handler: handler, BaseConfig: quiet})
			}(c)
		}
	}()
	return target
}
