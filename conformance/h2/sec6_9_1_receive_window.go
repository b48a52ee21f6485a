package h2

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/net/http2"
)

// sec6_9_1EnforcesReceiveWindow: "A sender MUST NOT send a flow-controlled frame with a length
// that exceeds the space available in either of the flow-control windows advertised by the
// receiver" (RFC 9113 §6.9.1); a receiver that lets it pass buffers what it never granted.
//
// Credit can only follow consumed data, so the overrun must come before the server could consume
// anything: one DATA frame of window+1 bytes on a fresh POST /upload. When the server's window is
// not smaller than its SETTINGS_MAX_FRAME_SIZE that takes more than one frame, and the overrun is
// sent instead on a GET /1m.bin with a body, which a server answering a GET normally leaves
// unread (the client's own window is 0, so that response never completes).
func sec6_9_1EnforcesReceiveWindow(ctx context.Context, cl *client) outcome {
	c, err := cl.dial(ctx, dialOpts{settings: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: 0}}})
	if err != nil {
		return fail("connect: %v", err)
	}
	target := "POST /upload"
	id, err := c.open("POST", "/upload", false)
	if err == nil {
		err = c.sync(ctx) // a server may grant a new stream window at once: count that in
	}
	if err != nil {
		return fail("%s: %v", target, err)
	}
	if c.peer.streams[id].sendWin+1 > int64(c.peer.maxFrame) {
		c.writeRST(id, http2.ErrCodeCancel)
		target = "GET /1m.bin with a body"
		if id, err = c.open("GET", "/1m.bin", false); err == nil {
			err = c.sync(ctx)
		}
		if err != nil {
			return fail("%s: %v", target, err)
		}
	}
	s := c.peer.streams[id]
	window, connWindow := s.sendWin, c.peer.sendConn
	if window > 64<<20 {
		return skip("stream window of %d bytes is too large to overrun in a test", window)
	}
	over := window + 1
	frames := 0
	for left := over; left > 0; frames++ {
		n := min(left, int64(c.peer.maxFrame))
		if err := c.writeData(id, false, make([]byte, n), -1); err != nil {
			return fail("sending DATA: %v", err)
		}
		left -= n
	}
	ended := func() bool { return s.reset != nil || c.peer.goaway != nil || c.peer.readErr != nil }
	if err := c.sync(ctx); err != nil && errors.Is(err, context.DeadlineExceeded) && !ended() {
		return fail("no answer to a PING after the overrun: %v", err)
	}
	c.grace(ctx, ended)

	what := fmt.Sprintf("%d bytes in %d DATA frame(s) on %s (stream window %d, connection window %d before)",
		over, frames, target, window, connWindow)
	flowErr := s.reset != nil && *s.reset == http2.ErrCodeFlowControl ||
		c.peer.goaway != nil && c.peer.goaway.code == http2.ErrCodeFlowControl
	switch {
	case flowErr:
		return pass("%s after %s", c.peer.streamEnd(id), what)
	case s.reset != nil || c.peer.goaway != nil:
		if target != "POST /upload" {
			return skip("server ended %s with %s before the overrun could be judged", target, c.peer.streamEnd(id))
		}
		return fail("%s after %s, want FLOW_CONTROL_ERROR", c.peer.streamEnd(id), what)
	case c.peer.readErr != nil:
		return pass("connection closed (without GOAWAY) after %s", what)
	case target != "POST /upload" && s.credit > 0:
		return skip("server consumed the GET's body and credited %d bytes; its window (%d) is not smaller than a frame (%d), so no overrun can be forced",
			s.credit, window, c.peer.maxFrame)
	}
	return fail("no RST_STREAM/GOAWAY FLOW_CONTROL_ERROR after %s (PING round trip done)", what)
}
