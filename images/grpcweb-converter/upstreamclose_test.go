package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// closingUpstream accepts HTTP/1.1 connections, reads a request's head and the start of its first
// message, and closes the connection without answering (grpcwebproxy does that to a full-duplex
// call at its 10 s write timeout).
func closingUpstream(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if req, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
					// Until the first message's frame header has arrived: the request stream is open.
					_, _ = io.ReadFull(req.Body, make([]byte, 5))
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// An upstream that closes the connection while the client's request stream is still open ends
// the call at once with UNAVAILABLE, not at the client's deadline.
func TestEdgeEndsCallWhenUpstreamCloses(t *testing.T) {
	client := edgeClient(t, closingUpstream(t))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream, err := client.FullDuplexCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := stream.Send(&testpb.StreamingOutputCallRequest{ResponseParameters: []*testpb.ResponseParameters{{Size: 1}}}); err != nil {
		t.Fatal(err)
	}
	_, err = stream.Recv() // the request stream stays open, as in ping_pong
	if s := status.Convert(err); s.Code() != codes.Unavailable || time.Since(start) > 3*time.Second {
		t.Fatalf("after %v: %v; want UNAVAILABLE at once", time.Since(start).Round(time.Millisecond), err)
	}
	t.Logf("after %v: %v", time.Since(start).Round(time.Millisecond), err)
}
