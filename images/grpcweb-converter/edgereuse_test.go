package main

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// Consecutive calls through the edge share one HTTP/1.1 connection to the upstream: the edge
// reads each answer to its end (drainEnd), the chunked terminator that follows the trailer frame
// included, so no call pays a new TCP handshake. (Go's chunked reader takes a terminator already
// in its buffer along with the last data, so the test holds the terminator back.)
func TestEdgeReusesUpstreamConnection(t *testing.T) {
	// The chunked terminator follows the trailer frame apart, as over a real link: the upstream
	// returns (net/http then writes the terminator) only once the edge drains the body, and the
	// drain's wait starts only after that.
	draining, returned := make(chan struct{}), make(chan struct{})
	hook := func() {
		draining <- struct{}{}
		<-returned
	}
	drainHook.Store(&hook)
	t.Cleanup(func() { drainHook.Store(nil) })
	var conns atomic.Int32
	msg, _ := proto.Marshal(&testpb.SimpleResponse{})
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/grpc-web+proto")
			body := grpcweb.AppendFrame(nil, 0, msg)
			body = grpcweb.AppendFrame(body, grpcweb.FlagTrailer, []byte("grpc-status: 0\r\n"))
			_, _ = w.Write(body)
			w.(http.Flusher).Flush()
			select {
			case <-draining:
				returned <- struct{}{}
			case <-r.Context().Done():
			}
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
