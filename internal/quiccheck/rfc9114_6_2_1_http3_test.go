package quiccheck

import (
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// h3Trace builds the HTTP/3 view of one connection: both control streams with SETTINGS, one
// request and its response, plus the given extra unidirectional streams.
func h3Trace(extra ...quictrace.H3Stream) *quictrace.Trace {
	u := func(v uint64) *uint64 { return &v }
	t := &quictrace.Trace{H3Streams: []quictrace.H3Stream{
		{ID: 2, Dir: quictrace.ClientToServer, Uni: true, ClientStarted: true, UniType: u(quictrace.H3StreamControl), FrameTypes: []uint64{quictrace.H3FrameSettings}},
		{ID: 3, Dir: quictrace.ServerToClient, Uni: true, UniType: u(quictrace.H3StreamControl), FrameTypes: []uint64{quictrace.H3FrameSettings}},
		{ID: 0, Dir: quictrace.ClientToServer, ClientStarted: true, FrameTypes: []uint64{quictrace.H3FrameHeaders}},
		{ID: 0, Dir: quictrace.ServerToClient, ClientStarted: true, FrameTypes: []uint64{quictrace.H3FrameHeaders, quictrace.H3FrameData}},
	}}
	t.H3Streams = append(t.H3Streams, extra...)
	return t
}

// RFC 9204 §4.2: QPACK streams are optional, but at most one of each per endpoint.
func TestHTTP3QPACKStreamRules(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	if r := checkHTTP3(h3Trace()); !r.OK() {
		t.Fatalf("no QPACK streams (no dynamic table) is allowed: %s", r)
	}
	one := []quictrace.H3Stream{
		{ID: 6, Dir: quictrace.ClientToServer, Uni: true, ClientStarted: true, UniType: u(quictrace.H3StreamQPACKEncoder)},
		{ID: 10, Dir: quictrace.ClientToServer, Uni: true, ClientStarted: true, UniType: u(quictrace.H3StreamQPACKDecoder)},
	}
	if r := checkHTTP3(h3Trace(one...)); !r.OK() {
		t.Fatalf("one of each: %s", r)
	}
	two := append(one, quictrace.H3Stream{ID: 14, Dir: quictrace.ClientToServer, Uni: true, ClientStarted: true, UniType: u(quictrace.H3StreamQPACKEncoder)})
	if r := checkHTTP3(h3Trace(two...)); r.OK() || !strings.Contains(r.Reason, "second QPACK encoder stream") {
		t.Fatalf("two encoder streams must fail: %s", r)
	}
}

// http3: one answered request hid unanswered ones ("requests > 0 and responses > 0").
func TestHTTP3EveryRequestAnswered(t *testing.T) {
	wantPass(t, checkHTTP3(h3Trace()))
	unanswered := quictrace.H3Stream{ID: 4, Dir: quictrace.ClientToServer, ClientStarted: true, FrameTypes: []uint64{quictrace.H3FrameHeaders}}
	wantFail(t, checkHTTP3(h3Trace(unanswered)), "request on stream 4")
}
