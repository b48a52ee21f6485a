package quictrace

import (
	"strings"
	"testing"
)

// h3Trace builds the HTTP/3 view of one connection: both control streams with SETTINGS, one
// request and its response, plus the given extra unidirectional streams.
func h3Trace(extra ...H3Stream) *Trace {
	u := func(v uint64) *uint64 { return &v }
	t := &Trace{H3Streams: []H3Stream{
		{ID: 2, Dir: ClientToServer, Uni: true, ClientStarted: true, UniType: u(H3StreamControl), FrameTypes: []uint64{H3FrameSettings}},
		{ID: 3, Dir: ServerToClient, Uni: true, UniType: u(H3StreamControl), FrameTypes: []uint64{H3FrameSettings}},
		{ID: 0, Dir: ClientToServer, ClientStarted: true, FrameTypes: []uint64{H3FrameHeaders}},
		{ID: 0, Dir: ServerToClient, ClientStarted: true, FrameTypes: []uint64{H3FrameHeaders, H3FrameData}},
	}}
	t.H3Streams = append(t.H3Streams, extra...)
	return t
}

// RFC 9204 §4.2: QPACK streams are optional, but at most one of each per endpoint.
func TestHTTP3QPACKStreamRules(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	if r := CheckHTTP3(h3Trace()); !r.OK() {
		t.Fatalf("no QPACK streams (no dynamic table) is allowed: %s", r)
	}
	one := []H3Stream{
		{ID: 6, Dir: ClientToServer, Uni: true, ClientStarted: true, UniType: u(H3StreamQPACKEncoder)},
		{ID: 10, Dir: ClientToServer, Uni: true, ClientStarted: true, UniType: u(H3StreamQPACKDecoder)},
	}
	if r := CheckHTTP3(h3Trace(one...)); !r.OK() {
		t.Fatalf("one of each: %s", r)
	}
	two := append(one, H3Stream{ID: 14, Dir: ClientToServer, Uni: true, ClientStarted: true, UniType: u(H3StreamQPACKEncoder)})
	if r := CheckHTTP3(h3Trace(two...)); r.OK() || !strings.Contains(r.Reason, "second QPACK encoder stream") {
		t.Fatalf("two encoder streams must fail: %s", r)
	}
}
