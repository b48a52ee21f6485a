package main

import (
	"context"
	"io"
	"testing"
	"time"

	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// waitFor fails the test if nothing arrives on ch within d (a stalled flush would wait forever).
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: nothing after 5 s (a message is stuck in a buffer)", what)
	}
	panic("unreachable")
}

// TestMessagesFlushedAtOnce: a 5 KB message crosses edge and origin, both ways, before the next
// one exists — more than a 4 KB buffer but not enough to fill a bigger one (grpc-web#820).
func TestMessagesFlushedAtOnce(t *testing.T) {
	for _, text := range []bool{false, true} {
		srv := newGatedServer(5 << 10)
		c := &chain{server: srv, text: text}
		tc := testgrpc.NewTestServiceClient(c.start(t))
		ctx := testContext(t)

		// Response direction: the server holds its second message until the first arrived.
		down, err := tc.StreamingOutputCall(ctx, &testpb.StreamingOutputCallRequest{})
		if err != nil {
			t.Fatal(err)
		}
		first := make(chan error, 1)
		go func() { _, err := down.Recv(); first <- err }()
		if err := waitFor(t, first, "first server message"); err != nil {
			t.Fatal(err)
		}
		close(srv.release)
		if _, err := down.Recv(); err != nil {
			t.Fatal(err)
		}
		if _, err := down.Recv(); err != io.EOF {
			t.Fatalf("end of stream: %v", err)
		}

		// Request direction: the client holds its second message until the server has the first.
		up, err := tc.FullDuplexCall(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if err := up.Send(&testpb.StreamingOutputCallRequest{Payload: &testpb.Payload{Body: make([]byte, 5<<10)}}); err != nil {
				t.Fatal(err)
			}
			if n := waitFor(t, srv.received, "client message at the server"); n != 5<<10 {
				t.Fatalf("server got %d bytes", n)
			}
			if _, err := up.Recv(); err != nil {
				t.Fatalf("text=%v, round %d: %v", text, i, err)
			}
		}
		up.CloseSend()
		if _, err := up.Recv(); err != io.EOF {
			t.Fatalf("end of duplex stream: %v", err)
		}
	}
}

// TestCancelReachesServer: a client cancel crosses the HTTP/1.1 hop and cancels the server's call.
func TestCancelReachesServer(t *testing.T) {
	srv := newGatedServer(1)
	c := &chain{server: srv}
	tc := testgrpc.NewTestServiceClient(c.start(t))
	ctx, cancel := context.WithCancel(testContext(t))
	stream, err := tc.FullDuplexCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&testpb.StreamingOutputCallRequest{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, srv.started, "call start at the server")
	waitFor(t, srv.received, "first message at the server")
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := waitFor(t, srv.ended, "server call end after the client cancelled"); err != context.Canceled {
		t.Fatalf("server call ended with %v, want context.Canceled", err)
	}
}
