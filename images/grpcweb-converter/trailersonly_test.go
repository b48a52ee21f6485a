package main

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// A status error before any message makes grpc-go answer trailers-only.
var failedPrecondition = &testpb.SimpleRequest{ResponseStatus: &testpb.EchoStatus{Code: int32(codes.FailedPrecondition), Message: "not yet ☺"}}

func unaryStatus(t *testing.T, c *chain) *status.Status {
	t.Helper()
	_, err := testgrpc.NewTestServiceClient(c.start(t)).UnaryCall(testContext(t), failedPrecondition)
	return status.Convert(err)
}

func TestTrailersOnlyKeepsCodeThroughChain(t *testing.T) {
	st := unaryStatus(t, &chain{})
	if st.Code() != codes.FailedPrecondition || st.Message() != "not yet ☺" {
		t.Fatalf("client got %v %q, want FailedPrecondition \"not yet ☺\"", st.Code(), st.Message())
	}
}

// TestTrailersOnlyStaysTrailersOnly looks at the wire on each side: the edge answers with one
// HEADERS frame (Go's client puts END_STREAM headers in resp.Header, with no body or trailers
// and no content-length), the origin with status headers and an empty body.
func TestTrailersOnlyStaysTrailersOnly(t *testing.T) {
	c := &chain{}
	c.start(t)
	body := frameOf(t, failedPrecondition)
	const path = "/grpc.testing.TestService/UnaryCall"

	edge := rawCall(t, noProxyTransport(true), "http://"+c.edgeAddr+path, "application/grpc", body, nil)
	if !edge.trailersOnly || edge.status != "9" || len(edge.resp.Trailer) != 0 {
		t.Fatalf("edge: trailersOnly=%v status=%q trailers=%v body=%x", edge.trailersOnly, edge.status, edge.resp.Trailer, edge.body)
	}
	if _, ok := edge.resp.Header["Content-Length"]; ok {
		t.Fatalf("edge trailers-only response has content-length %q", edge.resp.Header["Content-Length"])
	}

	for _, ct := range []string{"application/grpc-web+proto", "application/grpc-web-text"} {
		web := body
		if ct == "application/grpc-web-text" {
			web = appendText(nil, body)
		}
		origin := rawCall(t, noProxyTransport(false), "http://"+c.originAddr+path, ct, web, nil)
		if !origin.trailersOnly || origin.status != "9" || origin.message != "not yet ☺" {
			t.Fatalf("origin %s: trailersOnly=%v status=%q message=%q body=%x", ct, origin.trailersOnly, origin.status, origin.message, origin.body)
		}
		if got := origin.resp.Header.Get("Content-Type"); got != ct {
			t.Fatalf("origin answered %s to a %s request", got, ct)
		}
	}
}

// TestEmptyTrailerFrameMisbehaviourIsDetectable: with the traefik/improbable bug on either
// converter the client no longer sees the real code.
func TestEmptyTrailerFrameMisbehaviourIsDetectable(t *testing.T) {
	bug := []string{"--misbehave", "empty-trailer-frame"}
	for name, c := range map[string]*chain{"origin": {originArgs: bug}, "edge": {edgeArgs: bug}} {
		t.Run(name, func(t *testing.T) {
			st := unaryStatus(t, c)
			if st.Code() == codes.FailedPrecondition {
				t.Fatalf("client still got %v %q through a misbehaving %s", st.Code(), st.Message(), name)
			}
			t.Logf("misbehaving %s: client got %v %q", name, st.Code(), st.Message())
		})
	}
	c := &chain{originArgs: bug}
	c.start(t)
	r := rawCall(t, noProxyTransport(false), "http://"+c.originAddr+"/grpc.testing.TestService/UnaryCall",
		"application/grpc-web", frameOf(t, failedPrecondition), nil)
	if !bytes.Equal(r.body, []byte{0x80, 0, 0, 0, 0}) || r.resp.Header.Get("Grpc-Status") != "9" {
		t.Fatalf("misbehaving origin sent status %q and body %x", r.resp.Header.Get("Grpc-Status"), r.body)
	}
}
