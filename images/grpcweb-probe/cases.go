package main

import (
	"net/http"

	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/wirelab/wirelab/internal/observed"
)

// kind says where a case's probe ends sit, and so which part of a chain it exercises.
type kind string

const (
	kindChain  kind = "chain"  // probe client -> [edge -> origin] -> probe server (also direct)
	kindEdge   kind = "edge"   // probe client -> edge -> probe origin (HTTP/1.1 gRPC-web)
	kindOrigin kind = "origin" // probe client (HTTP/1.1 gRPC-web) -> origin -> probe server
)

// benchCase is the client's benchmark against grpc-go's interop server; no probe side plays.
const benchCase = "bench"

// probeCase is one conversion case: one real converter bug, the quirk the far end plays to
// provoke it, and the client's check that catches it.
type probeCase struct {
	kind   kind
	server func() http.Handler // the h2c gRPC upstream's part; nil: plays nothing
	origin func() http.Handler // the HTTP/1.1 gRPC-web origin's part; nil: plays nothing
	down   bool                // the playing side (server for chain, origin for edge) does not listen
	// grpc: the server's part is a real grpc-go server with this service, which reports what it
	// saw to the observer (instead of server).
	grpc func(*observer) testgrpc.TestServiceServer
	// observed: the case's verdict also needs what the server saw (internal/observed.Judge on
	// its observation file, once the cell is fenced); the client's check covers its own side.
	observed bool
	check    func(*checker) error
}

// cases are the contract with conformance/grpcweb/cases.yml: the names must not change.
var cases = map[string]probeCase{
	"trailers_only_status_kept":              {kind: kindChain, server: trailersOnlyServer, check: checkTrailersOnly},
	"upstream_content_length_stripped":       {kind: kindChain, server: contentLengthServer, check: checkContentLength},
	"duplicate_trailers_kept":                {kind: kindChain, server: duplicateTrailersServer, check: checkDuplicateTrailers},
	"long_stream_outlives_proxy_timeouts":    {kind: kindChain, server: longStreamServer, check: checkLongStream},
	"upstream_html_503_unavailable":          {kind: kindChain, server: html503Server, check: checkHTML503},
	"upstream_down_unavailable":              {kind: kindChain, down: true, check: checkDown},
	"request_headers_after_reconversion":     {kind: kindChain, server: requestHeadersServer, check: checkRequestHeaders},
	"large_message_flushed":                  {kind: kindChain, server: largeMessageServer, check: checkLargeMessage},
	"message_size_limit":                     {kind: kindChain, server: sizeLimitServer, check: checkSizeLimit},
	"body_trailers_mixed_case_accepted":      {kind: kindEdge, origin: mixedCaseOrigin, check: checkMixedCase},
	"content_length_zero_trailers_only":      {kind: kindEdge, origin: contentLengthZeroOrigin, check: checkContentLengthZero},
	"text_padded_chunks_decoded":             {kind: kindEdge, origin: textChunksOrigin, check: checkTextChunks},
	"origin_down_unavailable":                {kind: kindEdge, down: true, check: checkDown},
	"body_trailers_lowercase":                {kind: kindOrigin, server: lowercaseServer, check: checkLowercase},
	"text_request_padded_chunks_decoded":     {kind: kindOrigin, server: textRequestServer, check: checkTextRequest},
	"text_request_content_length_recomputed": {kind: kindOrigin, server: requestHeadersServer, check: checkTextRequestLength},
	observed.CancelCase:                      {kind: kindChain, grpc: newCancelService, observed: true, check: checkCancel},
	observed.DeadlineCase:                    {kind: kindChain, grpc: newDeadlineService, observed: true, check: checkDeadline},
	"streamed_error_trailers_lowercase":      {kind: kindOrigin, grpc: newErrorTrailersService, check: checkErrorTrailers},
}

// part is what role plays in the case: a handler, or down (runs without listening). Neither
// means the role has no part.
func (pc probeCase) part(role string) (h http.Handler, down bool) {
	switch {
	case role == roleServer && pc.down && pc.kind == kindChain,
		role == roleOrigin && pc.down && pc.kind == kindEdge:
		return nil, true
	case role == roleServer && pc.server != nil:
		return pc.server(), false
	case role == roleOrigin && pc.origin != nil:
		return pc.origin(), false
	}
	return nil, false
}
