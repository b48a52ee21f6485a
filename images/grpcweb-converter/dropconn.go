package main

import (
	"io"
	"net"
	"net/http"
	"time"
)

// dropConnection finishes an HTTP/1.x response whose request body was not read to its end and
// closes the connection. net/http cannot be left to do it: for a full-duplex handler it discards
// the rest of the body after the handler returned and panics on EOF (golang/go#68560, "invalid
// concurrent Body.Read call"); and if that read fails instead, it keeps the connection and parses
// the leftover body as the next request (a 400 for the client's next call).
func dropConnection(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	_ = rc.Flush() // Hijack drops unflushed response bytes
	conn, buf, err := rc.Hijack()
	if err != nil {
		return
	}
	if r.ProtoAtLeast(1, 1) { // a flushed HTTP/1.1 response without content-length is chunked
		_, _ = buf.WriteString("0\r\n\r\n")
		_ = buf.Flush()
	}
	lingeringClose(conn)
}

// lingeringClose half-closes conn and reads until the peer closes (at most a second) before
// closing: closing with unread input would send a TCP RST that can destroy the response the peer
// has not read yet.
func lingeringClose(conn net.Conn) {
	if hc, ok := conn.(interface{ CloseWrite() error }); ok {
		_ = hc.CloseWrite()
	}
	go func() {
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		_, _ = io.Copy(io.Discard, conn)
		conn.Close()
	}()
}
