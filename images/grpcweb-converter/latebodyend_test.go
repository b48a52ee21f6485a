package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// A call whose upstream answers with streamed messages while the client is still sending keeps
// the client's connection when the request body ends after the status: the origin sends the
// status at once and then reads the rest of the body, rather than dropping the connection after
// bodyEndGrace. Dropped there, the connection looked reusable to the client (the response was
// complete, and Connection: close can no longer be said once the headers are out), so the
// client's next POST on it failed: Go's "http: server closed idle connection".
//
// The client here sends its body's end only once it has read the status, the order a client on
// a slow link sees when the upstream answers early; no pause is involved.
func TestLateBodyEndAfterStreamedAnswerKeepsConnection(t *testing.T) {
	up := startH2CUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/grpc")
		w.Header().Set("Trailer", "Grpc-Status, Grpc-Message")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(grpcweb.AppendFrame(nil, 0, []byte("m"))) // without reading the request
		w.(http.Flusher).Flush()
		w.Header().Set("Grpc-Status", "9")
		w.Header().Set("Grpc-Message", "early")
	})
	origin := startConverter(t, "--mode", "origin", "--upstream", "http://"+up)
	conn, err := net.Dial("tcp", origin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	frame := grpcweb.AppendFrame(nil, 0, []byte("x"))
	for call := 1; call <= 2; call++ {
		fmt.Fprintf(conn, "POST /t.S/M HTTP/1.1\r\nHost: o\r\nContent-Type: application/grpc-web\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(frame), frame)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("call %d: %v (the origin dropped the connection the previous call handed back)", call, err)
		}
		frames := grpcweb.NewFrameReader(resp.Body, 1<<10)
		var status string
		for status == "" {
			f, err := frames.Next()
			if err != nil {
				t.Fatalf("call %d: reading the answer: %v", call, err)
			}
			if f.IsTrailer() {
				md, _ := grpcweb.ParseTrailers(f.Payload)
				status, _ = md.Get("grpc-status")
			}
		}
		fmt.Fprint(conn, "0\r\n\r\n") // the request's end, after the status
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			t.Fatalf("call %d: the answer's end: %v", call, err)
		}
		resp.Body.Close()
		if resp.Close || status != "9" {
			t.Fatalf("call %d: Connection: close %v, grpc-status %q; want 9 on a connection that stays", call, resp.Close, status)
		}
	}
}
