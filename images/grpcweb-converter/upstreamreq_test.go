package main

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

var grpcOK = answer(http.StatusOK, "application/grpc", nil, "Grpc-Status", "0")

// originRequest sends a grpc-web-text request with a content-length (the length of the base64
// body) and metadata through an origin whose upstream records what it receives.
func originRequest(t *testing.T, misbehave string) (recorded, []byte) {
	t.Helper()
	up, got := startRecorder(t, true, grpcOK)
	origin := startConverter(t, "--mode", "origin", "--upstream", "http://"+up, "--misbehave", misbehave)
	frames := append(frameOf(t, &testpb.SimpleRequest{ResponseSize: 7}), frameOf(t, &testpb.Empty{})...)
	hdr := http.Header{"Grpc-Timeout": {"10S"}, "X-Dup": {"a", "b"}, "X-Trace-Bin": {"AAEC/w"}, "Te": {"trailers"}}
	rawCall(t, noProxyTransport(false), "http://"+origin+"/grpc.testing.TestService/UnaryCall",
		"application/grpc-web-text+proto", appendText(nil, frames), hdr)
	return <-got, frames
}

func TestOriginUpstreamRequest(t *testing.T) {
	r, frames := originRequest(t, "none")
	if r.proto != "HTTP/2.0" {
		t.Fatalf("upstream request over %s", r.proto)
	}
	if _, ok := r.header["Content-Length"]; ok || r.contentLength != -1 {
		t.Fatalf("stale content-length reached the upstream: %q (%d)", r.header["Content-Length"], r.contentLength)
	}
	if r.bodyErr != nil || !bytes.Equal(r.body, frames) {
		t.Fatalf("upstream body %x, %v; want the decoded frames %x", r.body, r.bodyErr, frames)
	}
	want := http.Header{
		"Te": {"trailers"}, "Content-Type": {"application/grpc+proto"}, "X-Dup": {"a", "b"},
		"X-Trace-Bin": {"AAEC/w"}, "X-Wirelab-Converted": {"origin"},
	}
	for k, v := range want {
		if !slices.Equal(r.header[k], v) {
			t.Errorf("upstream %s = %q, want %q", k, r.header[k], v)
		}
	}
	for _, k := range []string{"X-Grpc-Web", "Accept"} {
		if v, ok := r.header[k]; ok {
			t.Errorf("gRPC-web-only header %s: %q reached the gRPC upstream", k, v)
		}
	}
	left, err := grpcweb.ParseTimeout(r.header.Get("Grpc-Timeout"))
	if err != nil || left > 10*time.Second || left < 5*time.Second {
		t.Errorf("forwarded grpc-timeout %q (%v), want the time left of 10S", r.header.Get("Grpc-Timeout"), err)
	}
}

// TestStaleContentLengthMisbehaviourIsDetectable: the base64 length reaches the upstream, which
// then finds the decoded body shorter than declared.
func TestStaleContentLengthMisbehaviourIsDetectable(t *testing.T) {
	r, frames := originRequest(t, "stale-content-length")
	encodedLen := len(appendText(nil, frames))
	if got := r.header.Get("Content-Length"); got != strconv.Itoa(encodedLen) || r.contentLength != int64(encodedLen) {
		t.Fatalf("upstream content-length %q (%d), want the stale %d", got, r.contentLength, encodedLen)
	}
	if r.bodyErr == nil {
		t.Fatalf("upstream read %d bytes declared as %d without error", len(r.body), encodedLen)
	}
	t.Logf("upstream body error: %v", r.bodyErr)
}

// TestEdgeUpstreamRequest: the HTTP/1.1 side gets a chunked gRPC-web request with the metadata,
// the deadline and the mark, and no h2-only or stale fields.
func TestEdgeUpstreamRequest(t *testing.T) {
	for _, text := range []bool{false, true} {
		up, got := startRecorder(t, false, answer(http.StatusOK, "application/grpc-web", webBody([][]byte{{}}, "grpc-status: 0\r\n")))
		args := []string{"--mode", "edge", "--h2c", "--upstream", "http://" + up}
		wantCT := "application/grpc-web"
		if text {
			args, wantCT = append(args, "--text"), "application/grpc-web-text"
		}
		cc, err := grpc.NewClient(startConverter(t, args...), grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer cc.Close()
		ctx := metadata.AppendToOutgoingContext(testContext(t), "x-dup", "a", "x-dup", "b", "x-trace-bin", "\x00\x01")
		if _, err := testgrpc.NewTestServiceClient(cc).EmptyCall(ctx, &testpb.Empty{}); err != nil {
			t.Fatal(err)
		}
		r := <-got
		if r.proto != "HTTP/1.1" || !slices.Equal(r.transferEncoding, []string{"chunked"}) || r.contentLength != -1 {
			t.Fatalf("text=%v: %s, transfer-encoding %q, content-length %d; want chunked HTTP/1.1", text, r.proto, r.transferEncoding, r.contentLength)
		}
		body := r.body
		if text {
			if body, err = readText(r.body); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(body, []byte{0, 0, 0, 0, 0}) {
			t.Fatalf("text=%v: upstream body %x, want one empty message", text, r.body)
		}
		want := http.Header{"Content-Type": {wantCT}, "Accept": {wantCT}, "X-Grpc-Web": {"1"},
			"X-Dup": {"a", "b"}, "X-Trace-Bin": {"AAE"}, "X-Wirelab-Converted": {"edge"}}
		for k, v := range want {
			if !slices.Equal(r.header[k], v) {
				t.Errorf("text=%v: upstream %s = %q, want %q", text, k, r.header[k], v)
			}
		}
		if _, ok := r.header["Te"]; ok {
			t.Errorf("text=%v: te reached the HTTP/1.1 hop", text)
		}
		if _, err := grpcweb.ParseTimeout(r.header.Get("Grpc-Timeout")); err != nil {
			t.Errorf("text=%v: grpc-timeout %q: %v", text, r.header.Get("Grpc-Timeout"), err)
		}
	}
}
