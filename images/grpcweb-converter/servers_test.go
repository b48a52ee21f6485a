package main

import (
	"io"
	"net"
	"net/http"
	"testing"

	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// gatedServer sends a server stream's second message only after release is closed, and reports
// each request message of a full-duplex call as it arrives: tests use it to prove that a message
// crossed both converters before the next one exists.
type gatedServer struct {
	testgrpc.UnimplementedTestServiceServer
	size     int
	release  chan struct{}
	received chan int      // request payload sizes, FullDuplexCall
	started  chan struct{} // closed-over signal that FullDuplexCall began
	ended    chan error    // FullDuplexCall's context error when it ends
}

func newGatedServer(size int) *gatedServer {
	return &gatedServer{size: size, release: make(chan struct{}), received: make(chan int, 16),
		started: make(chan struct{}, 16), ended: make(chan error, 16)}
}

func (g *gatedServer) payload() *testpb.StreamingOutputCallResponse {
	return &testpb.StreamingOutputCallResponse{Payload: &testpb.Payload{Body: make([]byte, g.size)}}
}

func (g *gatedServer) StreamingOutputCall(_ *testpb.StreamingOutputCallRequest, s testgrpc.TestService_StreamingOutputCallServer) error {
	if err := s.Send(g.payload()); err != nil {
		return err
	}
	select {
	case <-g.release:
	case <-s.Context().Done():
		return s.Context().Err()
	}
	return s.Send(g.payload())
}

func (g *gatedServer) FullDuplexCall(s testgrpc.TestService_FullDuplexCallServer) error {
	g.started <- struct{}{}
	defer func() { g.ended <- s.Context().Err() }()
	for {
		req, err := s.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		g.received <- len(req.GetPayload().GetBody())
		if err := s.Send(g.payload()); err != nil {
			return err
		}
	}
}

// recorded is what a recording upstream saw of one request.
type recorded struct {
	header           http.Header
	contentLength    int64
	transferEncoding []string
	proto            string
	body             []byte
	bodyErr          error
}

// startRecorder serves h2c (HTTP/2 upstream of an origin) or HTTP/1.1 (upstream of an edge),
// records each request and answers with respond.
func startRecorder(t *testing.T, h2c bool, respond func(http.ResponseWriter)) (string, <-chan recorded) {
	t.Helper()
	got := make(chan recorded, 16)
	srv := &http.Server{Protocols: new(http.Protocols), Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		got <- recorded{r.Header.Clone(), r.ContentLength, r.TransferEncoding, r.Proto, body, err}
		respond(w)
	})}
	if h2c {
		srv.Protocols.SetUnencryptedHTTP2(true)
	} else {
		srv.Protocols.SetHTTP1(true)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), got
}

// answer writes a canned response: status, content type and body.
func answer(status int, ct string, body []byte, hdr ...string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(hdr); i += 2 {
			w.Header().Add(hdr[i], hdr[i+1])
		}
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.WriteHeader(status)
		w.Write(body)
	}
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
