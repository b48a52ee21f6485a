package main

import (
	"fmt"
	"net/http"
	"slices"

	testpb "google.golang.org/grpc/interop/grpc_testing"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// body_trailers_mixed_case_accepted: trailer names in a gRPC-web body should be lowercase, but
// origins have sent "Grpc-Status"; an edge must accept any case, as HTTP/1 header names are
// case-insensitive (improbable#228, grpc-web#696).

// mixedCaseTrailers is the origin's trailer block, names as an HTTP/1 server might write them.
const mixedCaseTrailers = "Grpc-Status: 0\r\nGrpc-Message: \r\nX-Probe-Trailer: Mixed-Case-Name\r\n"

const mixedCaseValue = "Mixed-Case-Name"

func mixedCaseOrigin() http.Handler {
	return webHandler(func(c *webCall) {
		var req testpb.SimpleRequest
		if !c.readRequest(&req) {
			return
		}
		if c.send(unaryAnswer(&req)) == nil {
			_ = c.frame(grpcweb.FlagTrailer, []byte(mixedCaseTrailers))
		}
	})
}

func checkMixedCase(c *checker) error {
	tr, err := c.unaryOK(fmt.Sprintf("UnaryCall; the origin's body trailers are %q, expecting OK and x-probe-trailer %q", mixedCaseTrailers, mixedCaseValue),
		&testpb.SimpleRequest{ResponseSize: 10}, "x-probe-trailer")
	if err != nil {
		return err
	}
	if want := []string{mixedCaseValue}; !slices.Equal(tr["x-probe-trailer"], want) {
		return failf("want trailer x-probe-trailer %q, got %q", want, tr["x-probe-trailer"])
	}
	return nil
}
