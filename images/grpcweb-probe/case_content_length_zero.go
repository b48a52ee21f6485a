package main

import (
	"fmt"
	"io"
	"net/http"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// content_length_zero_trailers_only: a gRPC-web trailers-only answer with content-length: 0 and
// an empty body carries its status in the headers (grpc-web#1101: clients and proxies that
// waited for a body trailer frame reported an error instead).

const notFoundMessage = "probe: not found"

func contentLengthZeroOrigin() http.Handler {
	return webHandler(func(c *webCall) {
		_, _ = io.Copy(io.Discard, c.r.Body)
		h := c.w.Header()
		h.Set("Content-Type", c.ct)
		h.Set("Grpc-Status", "5")
		h.Set("Grpc-Message", "probe%3A%20not%20found") // ':' and ' ' encoded too: decoders undo any %XX
		h.Set("Content-Length", "0")
		c.w.WriteHeader(http.StatusOK)
	})
}

func checkContentLengthZero(c *checker) error {
	return c.unaryWantStatus(fmt.Sprintf("UnaryCall; the origin answers content-length: 0 with the status in its headers, expecting NOT_FOUND %q", notFoundMessage),
		&testpb.SimpleRequest{ResponseSize: 10}, codes.NotFound, notFoundMessage)
}
