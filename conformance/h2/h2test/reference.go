package h2test

import (
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/http2"
)

// Contract serves the lab's h2 contract: GET / (2 KiB page), GET /1m.bin (1 MiB), POST /upload
// (consumes the body, answers 200 with its decimal byte count).
func Contract() http.Handler {
	page := "<!doctype html><title>wirelab</title>\n" + strings.Repeat("wirelab h2 test page\n", 100)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, page) })
	mux.HandleFunc("GET /1m.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1048576")
		w.Write(make([]byte, 1<<20))
	})
	mux.HandleFunc("POST /upload", func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		if err != nil {
			return
		}
		fmt.Fprint(w, n)
	})
	return mux
}

// ReferenceOpts vary what is around the reference server, never the server itself (that is conf).
type ReferenceOpts struct {
	// Wrap, when set, wraps the contract handler, e.g. to slow some requests down.
	Wrap func(http.Handler) http.Handler
	// SendBuffer > 0 fixes each server socket's send buffer (SO_SNDBUF), so a flood of answers
	// fills it as on a real path instead of vanishing into loopback's autotuned megabytes.
	SendBuffer int
}

// StartReference runs x/net's HTTP/2 server (ServeConn on each TLS connection) with conf and the
// contract handler until the test ends, and returns its address.
func StartReference(t testing.TB, conf *http2.Server) string {
	return StartReferenceWith(t, conf, ReferenceOpts{})
}

// StartReferenceWith is StartReference with o around the server.
func StartReferenceWith(t testing.TB, conf *http2.Server, o ReferenceOpts) string {
	ln := ListenTLS(t)
	h := Contract()
	if o.Wrap != nil {
		h = o.Wrap(h)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			tc := c.(*tls.Conn)
			if o.SendBuffer > 0 {
				tc.NetConn().(*net.TCPConn).SetWriteBuffer(o.SendBuffer)
			}
			go func() {
				defer tc.Close()
				// ServeConn needs the handshake done to see TLS 1.2+ and ALPN.
				if err := tc.Handshake(); err != nil {
					return
				}
				conf.ServeConn(tc, &http2.ServeConnOpts{Handler: h, BaseConfig: quiet})
			}()
		}
	}()
	return ln.Addr().String()
}

// quiet keeps x/net's per-connection error logs (clients that break rules on purpose) out of
// test output.
var quiet = &http.Server{ErrorLog: log.New(io.Discard, "", 0)}
