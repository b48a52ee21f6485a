package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// webReply is a gRPC-web answer: HTTP status, messages, and the status from the trailer frame
// or, for a trailers-only answer, from the headers.
type webReply struct {
	httpStatus        int
	contentType       string
	messages          [][]byte
	trailersOnly      bool
	grpcStatus, grpcM string
	errorBody         string // the body of a non-200 answer
}

// origin runs grpc-go's interop server (h2c) behind the vanguard handler (HTTP/1.1).
func origin(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	testgrpc.RegisterTestServiceServer(s, interop.NewTestServer())
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	h, err := newHandler("http://"+ln.Addr().String(), &eventLog{w: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h) // HTTP/1.1, as on the lab's edge -> origin hop
	t.Cleanup(srv.Close)
	return srv.URL
}

// webCall POSTs one binary gRPC-web request (HTTP/1.1) with msg as its only message.
func webCall(t *testing.T, base, path string, msg proto.Message) webReply {
	t.Helper()
	payload, err := proto.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", base+path, bytes.NewReader(grpcweb.AppendFrame(nil, 0, payload)))
	req.Header.Set("Content-Type", "application/grpc-web+proto")
	req.Header.Set("X-Grpc-Web", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := webReply{httpStatus: resp.StatusCode, contentType: resp.Header.Get("Content-Type")}
	r.grpcStatus, r.grpcM = resp.Header.Get("Grpc-Status"), grpcweb.DecodeMessage(resp.Header.Get("Grpc-Message"))
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		r.errorBody = string(b)
		return r
	}
	fr := grpcweb.NewFrameReader(resp.Body, 0)
	sawTrailer := false
	for {
		f, err := fr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: reading the body: %v", path, err)
		}
		if !f.IsTrailer() {
			r.messages = append(r.messages, f.Payload)
			continue
		}
		tr, err := grpcweb.ParseTrailers(f.Payload)
		if err != nil {
			t.Fatal(err)
		}
		sawTrailer = true
		r.grpcStatus, _ = tr.Get("grpc-status")
		m, _ := tr.Get("grpc-message")
		r.grpcM = grpcweb.DecodeMessage(m)
	}
	r.trailersOnly = !sawTrailer && len(r.messages) == 0 && r.grpcStatus != ""
	return r
}

func TestEmptyUnary(t *testing.T) {
	r := webCall(t, origin(t), "/grpc.testing.TestService/EmptyCall", &testgrpc.Empty{})
	if r.httpStatus != 200 || r.contentType != "application/grpc-web+proto" || r.grpcStatus != "0" || len(r.messages) != 1 || len(r.messages[0]) != 0 {
		t.Fatalf("got %+v, want 200 application/grpc-web+proto, one empty message, grpc-status 0", r)
	}
}

// A status before any message: grpc-go answers trailers-only; code and message must survive.
func TestErrorKeepsStatus(t *testing.T) {
	req := &testgrpc.SimpleRequest{ResponseStatus: &testgrpc.EchoStatus{Code: int32(codes.FailedPrecondition), Message: "not yet ☺\t\r\n"}}
	r := webCall(t, origin(t), "/grpc.testing.TestService/UnaryCall", req)
	if r.grpcStatus != "9" || r.grpcM != "not yet ☺\t\r\n" || len(r.messages) != 0 {
		t.Fatalf("got %+v, want grpc-status 9 %q and no message", r, "not yet ☺\t\r\n")
	}
	t.Logf("trailers-only through vanguard: %v (HTTP %d)", r.trailersOnly, r.httpStatus)
}

// UnimplementedService is registered too, so its call reaches the server, which answers 12.
func TestUnimplementedService(t *testing.T) {
	r := webCall(t, origin(t), "/grpc.testing.UnimplementedService/UnimplementedCall", &testgrpc.Empty{})
	if r.grpcStatus != "12" {
		t.Fatalf("got %+v, want grpc-status 12", r)
	}
}

// Vanguard refuses bidi streams over HTTP/1.1 (its documented limit): ping_pong cannot pass.
func TestBidiOverHTTP1Refused(t *testing.T) {
	r := webCall(t, origin(t), "/grpc.testing.TestService/FullDuplexCall", &testgrpc.StreamingOutputCallRequest{})
	if r.httpStatus != http.StatusHTTPVersionNotSupported {
		t.Fatalf("got %+v, want HTTP 505", r)
	}
	t.Logf("HTTP %d %q", r.httpStatus, r.errorBody)
}
