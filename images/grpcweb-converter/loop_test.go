package main

import (
	"net/http"
	"strings"
	"testing"

	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// TestConvertTwiceRefused: a request already marked by the same mode is refused with INTERNAL
// (trailers-only) and never reaches the upstream; a mark by the other mode is fine.
func TestConvertTwiceRefused(t *testing.T) {
	up, got := startRecorder(t, true, grpcOK)
	origin := startConverter(t, "--mode", "origin", "--upstream", "http://"+up)
	webUp, webGot := startRecorder(t, false, answer(http.StatusOK, "application/grpc-web", nil, "grpc-status", "0"))
	edge := startConverter(t, "--mode", "edge", "--h2c", "--upstream", "http://"+webUp)
	body := frameOf(t, &testpb.Empty{})
	for _, tt := range []struct {
		name, url, ct, mark string
		h2c                 bool
		refused             bool
		seen                <-chan recorded
	}{
		{"origin marked origin", "http://" + origin, "application/grpc-web", "edge, origin", false, true, got},
		{"origin marked edge", "http://" + origin, "application/grpc-web", "edge", false, false, got},
		{"edge marked edge", "http://" + edge, "application/grpc", "EDGE", true, true, webGot},
		{"edge marked origin", "http://" + edge, "application/grpc", "origin", true, false, webGot},
	} {
		r := rawCall(t, noProxyTransport(tt.h2c), tt.url+"/grpc.testing.TestService/EmptyCall", tt.ct, body,
			http.Header{"X-Wirelab-Converted": {tt.mark}})
		if !tt.refused {
			if rec := <-tt.seen; r.status != "0" || len(rec.header["X-Wirelab-Converted"]) != 2 {
				t.Errorf("%s: status %q, upstream mark %q; want 0 and two marks", tt.name, r.status, rec.header["X-Wirelab-Converted"])
			}
			continue
		}
		if r.status != "13" || !r.trailersOnly || !strings.Contains(r.message, "already converted") {
			t.Errorf("%s: status %q %q (trailers-only %v), want a trailers-only 13", tt.name, r.status, r.message, r.trailersOnly)
		}
		select {
		case <-tt.seen:
			t.Errorf("%s: the looping request reached the upstream", tt.name)
		default:
		}
	}
}
