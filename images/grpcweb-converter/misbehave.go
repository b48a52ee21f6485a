package main

import "fmt"

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
)

func parseMisbehaviour(s string) (misbehaviour, error) {
	switch m := misbehaviour(s); m {
	case "", behaveCorrectly:
		return behaveCorrectly, nil
	case emptyTrailerFrame, staleContentLength:
		return m, nil
	}
	return "", fmt.Errorf("want none, %s or %s, got %q", emptyTrailerFrame, staleContentLength, s)
}
