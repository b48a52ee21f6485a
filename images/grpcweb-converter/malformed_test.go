package main

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

const unaryPath = "/grpc.testing.TestService/UnaryCall"

// TestMalformedInputFailsOnlyItsStream: bad frames and bad base64 end their own stream with
// INTERNAL (RESOURCE_EXHAUSTED for an impossible length) while a stream opened before them on the
// same converters completes afterwards.
func TestMalformedInputFailsOnlyItsStream(t *testing.T) {
	srv := newGatedServer(100)
	c := &chain{server: srv}
	tc := testgrpc.NewTestServiceClient(c.start(t))
	ctx := testContext(t)
	long, err := tc.StreamingOutputCall(ctx, &testpb.StreamingOutputCallRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := long.Recv(); err != nil {
		t.Fatal(err)
	}

	lying := []byte{0, 0, 0, 0, 100, 'o', 'n', 'l', 'y', ' ', '9'} // declares 100 bytes, has 6
	huge := []byte{0, 0xff, 0xff, 0xff, 0xff}                      // 4 GiB declared
	cases := []struct {
		name, url, ct string
		h2c           bool
		body          []byte
		code          string
	}{
		{"edge lying length", "http://" + c.edgeAddr, "application/grpc", true, lying, "13"},
		{"edge truncated header", "http://" + c.edgeAddr, "application/grpc", true, []byte{0, 0}, "13"},
		{"edge reserved flags", "http://" + c.edgeAddr, "application/grpc", true, []byte{0x40, 0, 0, 0, 0}, "13"},
		{"edge trailer frame in request", "http://" + c.edgeAddr, "application/grpc", true, []byte{0x80, 0, 0, 0, 0}, "13"},
		{"edge huge length", "http://" + c.edgeAddr, "application/grpc", true, huge, "8"},
		{"origin lying length", "http://" + c.originAddr, "application/grpc-web", false, lying, "13"},
		{"origin truncated header", "http://" + c.originAddr, "application/grpc-web", false, []byte{0, 0, 0}, "13"},
		{"origin huge length", "http://" + c.originAddr, "application/grpc-web", false, huge, "8"},
		{"origin invalid base64", "http://" + c.originAddr, "application/grpc-web-text", false, []byte("AAAAAA*A"), "13"},
		{"origin base64 ends mid-group", "http://" + c.originAddr, "application/grpc-web-text", false, []byte("AAAAAAA"), "13"},
		{"origin text lying length", "http://" + c.originAddr, "application/grpc-web-text", false, appendText(nil, lying), "13"},
	}
	var wg sync.WaitGroup
	for _, tt := range cases {
		wg.Add(1)
		go func() { // concurrently: each bad stream must fail on its own
			defer wg.Done()
			r, err := rawCallErr(ctx, noProxyTransport(tt.h2c), tt.url+unaryPath, tt.ct, tt.body, nil)
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			} else if r.status != tt.code || r.message == "" {
				t.Errorf("%s: status %q %q, want %s with a message", tt.name, r.status, r.message, tt.code)
			}
		}()
	}
	wg.Wait()

	close(srv.release)
	if _, err := long.Recv(); err != nil {
		t.Fatalf("the concurrent stream broke: %v", err)
	}
	if _, err := long.Recv(); err != io.EOF {
		t.Fatalf("the concurrent stream did not end cleanly: %v", err)
	}
}

// TestMalformedUpstreamResponse: a bad body from the upstream ends the call with INTERNAL (or
// RESOURCE_EXHAUSTED over the limit), never a hang or a crash.
func TestMalformedUpstreamResponse(t *testing.T) {
	bodies := map[string]struct {
		ct, body, code string
	}{
		"lying length":           {"application/grpc-web", "\x00\x00\x00\x00\x64abc", "13"},
		"no trailer frame":       {"application/grpc-web", "\x00\x00\x00\x00\x01a", "13"},
		"bad trailer block":      {"application/grpc-web", "\x80\x00\x00\x00\x0bgrpc-status", "13"},
		"compressed trailers":    {"application/grpc-web", "\x81\x00\x00\x00\x00", "13"},
		"trailers w/o status":    {"application/grpc-web", "\x80\x00\x00\x00\x00", "2"},
		"invalid base64":         {"application/grpc-web-text", "AAAA!AAA", "13"},
		"over the message limit": {"application/grpc-web", "\x00\x7f\xff\xff\xff", "8"},
	}
	for name, b := range bodies {
		up, _ := startRecorder(t, false, answer(http.StatusOK, b.ct, []byte(b.body)))
		edge := startConverter(t, "--mode", "edge", "--h2c", "--upstream", "http://"+up)
		r := rawCall(t, noProxyTransport(true), "http://"+edge+unaryPath, "application/grpc", frameOf(t, &testpb.SimpleRequest{}), nil)
		if r.status != b.code {
			t.Errorf("edge, %s: status %q %q, want %s", name, r.status, r.message, b.code)
		}
	}
	// The origin's upstream speaks gRPC: a trailer-flagged frame there is malformed.
	up, _ := startRecorder(t, true, answer(http.StatusOK, "application/grpc", []byte("\x80\x00\x00\x00\x00")))
	r := originCall(t, "http://"+up)
	if r.status != "13" || !strings.Contains(r.message, "trailer flag") {
		t.Errorf("origin, trailer frame from a gRPC upstream: %q %q, want 13", r.status, r.message)
	}
}
