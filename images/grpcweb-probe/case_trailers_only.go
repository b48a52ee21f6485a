package main

import (
	"fmt"
	"net/http"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// trailers_only_status_kept: an immediate error is one HEADERS frame with END_STREAM carrying
// the status (PROTOCOL-HTTP2.md Trailers-Only). Converters that append an empty trailer frame
// (80 00 00 00 00) to it make clients report UNKNOWN (traefik#13842, improbable#1164).

const permissionDeniedMessage = "probe: permission denied"

func trailersOnlyServer() http.Handler {
	play := func(c *rawCall) {
		_ = c.read(&testpb.SimpleRequest{}) // whatever came, the answer is the same
		c.finish(codes.PermissionDenied, permissionDeniedMessage)
	}
	return rawHandler(play, nil)
}

func checkTrailersOnly(c *checker) error {
	return c.unaryWantStatus(fmt.Sprintf("UnaryCall, expecting the server's trailers-only PERMISSION_DENIED %q", permissionDeniedMessage),
		&testpb.SimpleRequest{ResponseSize: 10}, codes.PermissionDenied, permissionDeniedMessage)
}
