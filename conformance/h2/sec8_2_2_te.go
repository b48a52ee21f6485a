package h2

import (
	"context"
	"errors"
	"strings"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// sec8_2_2TENotTrailers: "The only exception to this is the TE header field, which MAY be present
// in an HTTP/2 request; when it is, it MUST NOT contain any value other than 'trailers'" (RFC 9113
// §8.2.2), and "Malformed requests or responses that are detected MUST be treated as a stream
// error (Section 5.4.2) of type PROTOCOL_ERROR" (§8.1.1), which a server MAY precede with an
// HTTP response. A 4xx response alone, without RST_STREAM PROTOCOL_ERROR, does not meet it.
func sec8_2_2TENotTrailers(ctx context.Context, cl *client) outcome {
	c, err := cl.dial(ctx, dialOpts{})
	if err != nil {
		return fail("connect: %v", err)
	}
	id, err := c.open("GET", "/", true, hpack.HeaderField{Name: "te", Value: "gzip"})
	if err != nil {
		return fail("GET /: %v", err)
	}
	s := c.peer.streams[id]
	if err := c.waitDone(ctx, id); errors.Is(err, context.DeadlineExceeded) {
		return fail("no answer to GET / with te: gzip (no RST_STREAM, no response)")
	}
	if s.reset == nil && !c.peer.closed() {
		// A stream error may follow the response: give it a PING round trip.
		c.sync(ctx)
		c.grace(ctx, func() bool { return s.reset != nil || c.peer.closed() })
	}
	status := ""
	if s.headers != nil {
		status = s.headers.status()
	}
	protoErr := s.reset != nil && *s.reset == http2.ErrCodeProtocol ||
		c.peer.goaway != nil && c.peer.goaway.code == http2.ErrCodeProtocol
	switch {
	case protoErr && status != "":
		return pass("%s after a :status %s response to te: gzip", c.peer.streamEnd(id), status)
	case protoErr:
		return pass("%s for te: gzip", c.peer.streamEnd(id))
	case s.reset != nil || c.peer.goaway != nil:
		return fail("%s for te: gzip, want PROTOCOL_ERROR", c.peer.streamEnd(id))
	case c.peer.readErr != nil:
		return fail("connection closed without RST_STREAM/GOAWAY PROTOCOL_ERROR for te: gzip")
	case status == "":
		return fail("stream %d ended without a response and without RST_STREAM PROTOCOL_ERROR", id)
	case strings.HasPrefix(status, "4"):
		return fail("answered te: gzip with :status %s and no RST_STREAM PROTOCOL_ERROR (a malformed request is a stream error, §8.1.1)", status)
	}
	return fail("answered te: gzip with :status %s as a normal request, no RST_STREAM PROTOCOL_ERROR", status)
}
