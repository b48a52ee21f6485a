package main

import (
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// edgeClient is a grpc client of an h2c edge in front of upstream.
func edgeClient(t *testing.T, upstream string, args ...string) testgrpc.TestServiceClient {
	t.Helper()
	addr := startConverter(t, append([]string{"--mode", "edge", "--h2c", "--upstream", upstream}, args...)...)
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return testgrpc.NewTestServiceClient(cc)
}

// originCall sends one empty unary gRPC-web request to an origin in front of upstream.
func originCall(t *testing.T, upstream string) rawResult {
	t.Helper()
	addr := startConverter(t, "--mode", "origin", "--upstream", upstream)
	return rawCall(t, noProxyTransport(false), "http://"+addr+"/grpc.testing.TestService/EmptyCall",
		"application/grpc-web", frameOf(t, &testpb.Empty{}), nil)
}

// TestNonGRPCUpstreamAnswers: an HTML error page or a bare HTTP error maps to a gRPC status per
// http-grpc-status-mapping.md, with a grpc-message that says what came back.
func TestNonGRPCUpstreamAnswers(t *testing.T) {
	html := []byte("<html><body>503 Service Unavailable</body></html>")
	tests := []struct {
		status int
		ct     string
		want   codes.Code
	}{
		{503, "text/html", codes.Unavailable},
		{502, "text/html", codes.Unavailable},
		{504, "text/plain", codes.Unavailable},
		{429, "", codes.Unavailable},
		{400, "text/html", codes.Internal},
		{401, "text/html", codes.Unauthenticated},
		{403, "text/html", codes.PermissionDenied},
		{404, "text/html", codes.Unimplemented},
		{500, "text/html", codes.Unknown},
		{200, "text/html", codes.Unknown}, // 200 but not gRPC(-web)
	}
	for _, tt := range tests {
		for _, mode := range []string{"edge", "origin"} {
			up, _ := startRecorder(t, mode == "origin", answer(tt.status, tt.ct, html))
			var code codes.Code
			var msg string
			if mode == "edge" {
				_, err := edgeClient(t, "http://"+up).EmptyCall(testContext(t), &testpb.Empty{})
				code, msg = status.Code(err), status.Convert(err).Message()
			} else {
				r := originCall(t, "http://"+up)
				if !r.trailersOnly {
					t.Errorf("%s, HTTP %d: not trailers-only", mode, tt.status)
				}
				c, _ := parseCodeForTest(r.status)
				code, msg = c, r.message
			}
			if code != tt.want || !strings.Contains(msg, "HTTP "+itoa(tt.status)) || (tt.ct != "" && !strings.Contains(msg, tt.ct)) {
				t.Errorf("%s, HTTP %d %s: got %v %q, want %v naming the answer", mode, tt.status, tt.ct, code, msg, tt.want)
			}
		}
	}
}

func TestUnreachableUpstreamIsUnavailable(t *testing.T) {
	dead := "http://" + closedPort(t)
	_, err := edgeClient(t, dead).EmptyCall(testContext(t), &testpb.Empty{})
	if st := status.Convert(err); st.Code() != codes.Unavailable || !strings.Contains(st.Message(), "connection refused") {
		t.Errorf("edge: %v %q, want UNAVAILABLE naming the refused connection", st.Code(), st.Message())
	}
	r := originCall(t, dead)
	if r.status != "14" || !strings.Contains(r.message, "connection refused") || !r.trailersOnly {
		t.Errorf("origin: status %q %q (trailers-only %v), want 14 naming the refused connection", r.status, r.message, r.trailersOnly)
	}
}

// TestUpstreamTrailerFrameAnyCase: the edge accepts mixed-case names and duplicates in a trailer
// frame (improbable-eng/grpc-web#228) and keeps both duplicates.
func TestUpstreamTrailerFrameAnyCase(t *testing.T) {
	body := webBody(nil, "Grpc-Status: 7\r\nGRPC-MESSAGE: denied%20here\r\nX-Dup: a\r\nx-dup: b\r\n")
	up, _ := startRecorder(t, false, answer(http.StatusOK, "application/grpc-web+proto", body))
	var trailer metadataMD
	_, err := edgeClient(t, "http://"+up).EmptyCall(testContext(t), &testpb.Empty{}, grpc.Trailer(&trailer))
	if st := status.Convert(err); st.Code() != codes.PermissionDenied || st.Message() != "denied here" {
		t.Fatalf("got %v %q, want PermissionDenied \"denied here\"", st.Code(), st.Message())
	}
	if got := trailer["x-dup"]; len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("x-dup trailers %q, want [a b]", got)
	}
}

// TestOriginTrailerFrameLowercase: the origin's trailer frame has lowercase names, the status
// first, and the upstream's duplicate and -bin trailers.
func TestOriginTrailerFrameLowercase(t *testing.T) {
	c := &chain{}
	c.start(t)
	r := rawCall(t, noProxyTransport(false), "http://"+c.originAddr+"/grpc.testing.TestService/UnaryCall",
		"application/grpc-web", frameOf(t, &testpb.SimpleRequest{ResponseSize: 3}),
		http.Header{"X-Grpc-Test-Echo-Trailing-Bin": {"CgsKCwoL"}, "X-Grpc-Test-Echo-Initial": {"hi"}})
	if len(r.messages) != 1 || r.trailerFrame == nil {
		t.Fatalf("want one message and a trailer frame, got %d messages, trailers %q", len(r.messages), r.trailerFrame)
	}
	if r.trailerFrame[0].Name != "grpc-status" || r.status != "0" {
		t.Fatalf("trailer frame %q does not start with grpc-status: 0", r.trailerFrame)
	}
	for _, f := range r.trailerFrame {
		if f.Name != strings.ToLower(f.Name) {
			t.Fatalf("trailer name %q is not lowercase", f.Name)
		}
	}
	if v, _ := r.trailerFrame.Get("x-grpc-test-echo-trailing-bin"); v != "CgsKCwoL" {
		t.Fatalf("-bin trailer %q, want CgsKCwoL", v)
	}
	if r.resp.Header.Get("X-Grpc-Test-Echo-Initial") != "hi" {
		t.Fatalf("initial metadata lost: %v", r.resp.Header)
	}
}
