package main

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// misbehaviour makes the converter reproduce a known converter bug on purpose. TEST-ONLY: the
// conformance suite runs a misbehaving converter to prove that its checks catch the bug; never
// use one in front of real traffic.
type misbehaviour string

const (
	behaveCorrectly misbehaviour = "none"
	// emptyTrailerFrame appends the frame 80 00 00 00 00 after a trailers-only error, as
	// traefik#13842 and improbable-eng/grpc-web#1164 did; clients then report UNKNOWN instead of
	// the real code.
	emptyTrailerFrame misbehaviour = "empty-trailer-frame"
	// staleContentLength forwards the request's original content-length after the body was
	// re-encoded, instead of letting the transport recompute it (traefik#9697, envoy#40097).
	staleContentLength misbehaviour = "stale-content-length"
	// cutBodyAsEnd ends the upstream request cleanly when the client's request body breaks off
	// (the copy's error ignored), and does not tie the upstream call to the client's connection:
	// the server commits a call the client cancelled (grpc-web issue #27's origin).
	cutBodyAsEnd misbehaviour = "cut-body-as-end"
	// dropGRPCTimeout does not forward grpc-timeout (the converter still ends the call at the
	// deadline itself): the server works on without one.
	dropGRPCTimeout misbehaviour = "drop-grpc-timeout"
	// canonicalErrorTrailers writes the trailer names of a gRPC-web answer with an error status
	// in Go's canonical case (Grpc-Status), in the body's trailer frame and in trailers-only
	// headers, as error paths did (grpc-dotnet#1168, connect-go#461); OK answers stay lowercase.
	canonicalErrorTrailers misbehaviour = "canonical-error-trailers"
)

var misbehaviours = []misbehaviour{emptyTrailerFrame, staleContentLength, cutBodyAsEnd, dropGRPCTimeout, canonicalErrorTrailers}

func parseMisbehaviour(s string) (misbehaviour, error) {
	if s == "" || misbehaviour(s) == behaveCorrectly {
		return behaveCorrectly, nil
	}
	for _, m := range misbehaviours {
		if misbehaviour(s) == m {
			return m, nil
		}
	}
	return "", fmt.Errorf("want %s, got %q", misbehaviourList(), s)
}

// misbehaviourList names the choices for --misbehave.
func misbehaviourList() string {
	names := []string{string(behaveCorrectly)}
	for _, m := range misbehaviours {
		names = append(names, string(m))
	}
	return strings.Join(names, ", ")
}

// canonicalised is md with an error status and every name in canonical case, for
// canonicalErrorTrailers; other metadata is returned as it is.
func canonicalised(md grpcweb.Metadata) (grpcweb.Metadata, bool) {
	if st, _ := md.Get("grpc-status"); st == "0" {
		return md, false
	}
	out := make(grpcweb.Metadata, len(md))
	for i, f := range md {
		out[i] = grpcweb.Field{Name: http.CanonicalHeaderKey(f.Name), Value: f.Value}
	}
	return out, true
}

// appendTrailersAsNamed is grpcweb.AppendTrailers without lowercasing (canonicalErrorTrailers).
func appendTrailersAsNamed(dst []byte, md grpcweb.Metadata) []byte {
	for _, f := range md {
		dst = append(dst, f.Name+": "+f.Value+"\r\n"...)
	}
	return dst
}
