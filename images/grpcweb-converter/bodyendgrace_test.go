package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// An upstream that answers before the origin has read the request body's end (an early error)
// must not cost the client its connection when that end is already on its way: the origin waits
// bodyEndGrace for it (reading, discarded, what the upstream no longer takes), answers without
// Connection: close, and serves the next call on the same connection. (Without the wait, the
// connection was dropped after the answer without notice, and the client's next POST on it
// failed: connectconformance's "server closed idle connection".)
//
// The body's end is sent when the origin has the upstream's answer and begins to wait for it
// (bodyEndWaitHook), not after a guessed pause.
func TestEarlyAnswerKeepsConnectionWhenBodyEndFollows(t *testing.T) {
	waiting, sent := make(chan struct{}), make(chan struct{})
	hook := func() {
		waiting <- struct{}{}
		<-sent // the grace period starts once the end is on the wire
	}
	bodyEndWaitHook.Store(&hook)
	t.Cleanup(func() { bodyEndWaitHook.Store(nil) })

	up := startH2CUpstream(t, func(w http.ResponseWriter, r *http.Request) { trailersOnly(w, "9") })
	origin := startConverter(t, "--mode", "origin", "--upstream", "http://"+up)
	conn, err := net.Dial("tcp", origin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	frame := grpcweb.AppendFrame(nil, 0, []byte("x"))
	ctx := testContext(t)
	for call := 1; call <= 2; call++ {
		fmt.Fprintf(conn, "POST /t.S/M HTTP/1.1\r\nHost: o\r\nContent-Type: application/grpc-web\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(frame), frame)
		select { // the upstream has answered; the body's end follows
		case <-waiting:
		case <-ctx.Done():
			t.Fatalf("call %d: the origin never waited for the body's end (the upstream's answer did not arrive)", call)
		}
		if call == 2 { // and a message the upstream no longer takes: the origin reads it, discarded
			fmt.Fprintf(conn, "%x\r\n%s\r\n", len(frame), frame)
		}
		fmt.Fprint(conn, "0\r\n\r\n")
		sent <- struct{}{}
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("call %d: %v", call, err)
		}
		resp.Body.Close()
		if resp.Close || resp.Header.Get("Grpc-Status") != "9" {
			t.Fatalf("call %d: Connection: close %v, grpc-status %q; want the status and a reusable connection",
				call, resp.Close, resp.Header.Get("Grpc-Status"))
		}
	}
}
