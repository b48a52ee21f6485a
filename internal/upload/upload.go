// Package upload answers the h2 suite's uploads: read the whole request body and reply with the
// number of bytes received, so a client can tell that every byte it sent arrived. The body is
// streamed into io.Discard, never held: the server's own flow control and buffering (or the
// proxy's in front of it) is what a run measures, not this handler.
package upload

import (
	"io"
	"log"
	"net/http"
	"strconv"
	"time"
)

// Handler counts a POST or PUT body and answers 200 text/plain with the decimal byte count.
func Handler(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost && r.Method != http.MethodPut {
		w.Header().Set("Allow", "POST, PUT")
		http.Error(w, "POST or PUT a body to count", http.StatusMethodNotAllowed)
		return
	}
	start := time.Now()
	n, err := io.Copy(io.Discard, r.Body)
	// Content-Length -1 means chunked (HTTP/1.1) or none declared (HTTP/2): what the proxy chose.
	log.Printf("upload: %s %s %s from %s: %d bytes (Content-Length %d) in %v, err=%v",
		r.Method, r.URL.Path, r.Proto, r.RemoteAddr, n, r.ContentLength, time.Since(start).Round(time.Millisecond), err)
	if err != nil {
		http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
		return
	}
	body := strconv.FormatInt(n, 10)
	w.Header().Set("Content-Type", "text/plain")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	io.WriteString(w, body)
}
