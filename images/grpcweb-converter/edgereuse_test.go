package main

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// Consecutive calls through the edge share one HTTP/1.1 connection to the upstream: the edge
// reads each answer to its end (drainEnd), the chunked terminator that follows the trailer frame
// included, so no call pays a new TCP handshake.
func TestEdgeReusesUpstreamConnection(t *testing.T) {
	var conns atomic.Int32
	msg, _ := proto.Marshal(&testpb.SimpleResponse{})
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/grpc-web+proto")
			body := grpcweb.AppendFrame(nil, 0, msg)
			body = grpcweb.AppendFrame(body, grpcweb.FlagTrailer, []byte("grpc-status: 0\r\n"))
			_, _ = w.Write(body)
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond) // the chunked terminator comes apart, as over a real link
		}),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				conns.Add(1)
			}
		},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	client := edgeClient(t, "http://"+ln.Addr().String())
	for i := range 5 {
		if _, err := client.UnaryCall(context.Background(), &testpb.SimpleRequest{}); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("5 calls used %d upstream connections, want 1", n)
	}
}
