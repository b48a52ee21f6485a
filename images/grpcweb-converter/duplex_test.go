package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestHTTP1TransportStreamsPipeBody checks what edge mode relies on: net/http's HTTP/1.1 Transport
// returns the response while a pipe-fed request body is still open, sends each body write as a
// flushed chunk, and a server with EnableFullDuplex reads request chunks after it began its
// response. The exchange is lock-step, so any buffering on either side deadlocks (and the test
// context ends it).
func TestHTTP1TransportStreamsPipeBody(t *testing.T) {
	tes := make(chan []string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tes <- r.TransferEncoding
		rc := http.NewResponseController(w)
		if err := rc.EnableFullDuplex(); err != nil {
			t.Error(err)
			return
		}
		w.WriteHeader(http.StatusOK)
		rc.Flush()
		lines := bufio.NewReader(r.Body)
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				return
			}
			io.WriteString(w, "echo "+line)
			rc.Flush()
		}
	}))
	defer srv.Close()

	pr, pw := io.Pipe()
	req, _ := http.NewRequestWithContext(testContext(t), http.MethodPost, srv.URL, pr)
	req.ContentLength = -1
	resp, err := noProxyTransport(false).RoundTrip(req) // returns with the body still open
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 1 || resp.ProtoMinor != 1 {
		t.Fatalf("protocol %s, want HTTP/1.1", resp.Proto)
	}
	echoes := bufio.NewReader(resp.Body)
	for i := range 3 {
		fmt.Fprintf(pw, "ping %d\n", i)
		line, err := echoes.ReadString('\n')
		if want := fmt.Sprintf("echo ping %d\n", i); err != nil || line != want {
			t.Fatalf("round %d: %q, %v; want %q", i, line, err, want)
		}
	}
	pw.Close()
	if rest, err := io.ReadAll(echoes); err != nil || len(rest) != 0 {
		t.Fatalf("after the body ended: %q, %v", rest, err)
	}
	if te := <-tes; len(te) != 1 || te[0] != "chunked" {
		t.Fatalf("request transfer-encoding %q, want chunked", te)
	}
}
