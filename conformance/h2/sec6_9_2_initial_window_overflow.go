package h2conf

import (
	"context"
	"errors"

	"golang.org/x/net/http2"
)

// sec6_9_2InitialWindowOverflow: "An endpoint MUST treat a change to
// SETTINGS_INITIAL_WINDOW_SIZE that causes any flow-control window to exceed the maximum size as
// a connection error of type FLOW_CONTROL_ERROR" (RFC 9113 §6.9.2).
//
// The client's initial window is 0, so GET /1m.bin stays open with the response waiting; a
// WINDOW_UPDATE takes the server's send window for the stream to 2^31-1, the server can use at
// most the 65,535-byte connection window (never credited), and a +65,536 change of the initial
// window then pushes the stream's window past 2^31-1.
func sec6_9_2InitialWindowOverflow(ctx context.Context, cl *client) outcome {
	c, err := cl.dial(ctx, dialOpts{settings: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: 0}}})
	if err != nil {
		return fail("connect: %v", err)
	}
	id, err := c.open("GET", "/1m.bin", true)
	if err != nil {
		return fail("GET /1m.bin: %v", err)
	}
	s := c.peer.streams[id]
	if err := c.waitFor(ctx, func() bool { return s.headers != nil || s.ended || s.reset != nil || c.peer.closed() }); err != nil {
		return skip("no response HEADERS for GET /1m.bin at window 0: %v", err)
	}
	if s.reset != nil || c.peer.closed() || s.ended {
		return skip("GET /1m.bin ended (%s) before the window could be raised", c.peer.streamEnd(id))
	}
	const maxWindow = 1<<31 - 1
	c.writeWindowUpdate(id, maxWindow)
	if err := c.sync(ctx); err != nil {
		return fail("after WINDOW_UPDATE to 2^31-1: %v", err)
	}
	acks := c.peer.acks
	c.writeSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 65536})
	// The server sent at most 65,535 bytes (the connection window): its window is now >= 2^31.
	const window = "at least 2^31"
	goneOrReset := func() bool { return c.peer.goaway != nil || c.peer.readErr != nil || s.reset != nil }
	if err := c.sync(ctx); errors.Is(err, context.DeadlineExceeded) && !goneOrReset() {
		return fail("no GOAWAY and no PING ACK after the SETTINGS that took stream %d's window to %s", id, window)
	}
	c.grace(ctx, goneOrReset)

	acked := "did not ACK"
	if c.peer.acks > acks {
		acked = "ACKed"
	}
	switch {
	case c.peer.goaway != nil && c.peer.goaway.code == http2.ErrCodeFlowControl:
		return pass("GOAWAY FLOW_CONTROL_ERROR after SETTINGS_INITIAL_WINDOW_SIZE 0 -> 65536 took stream %d's window to %s (server %s the SETTINGS first)", id, window, acked)
	case c.peer.goaway != nil:
		return fail("GOAWAY %s, want FLOW_CONTROL_ERROR, after the SETTINGS that took stream %d's window to %s", c.peer.goaway.code, id, window)
	case s.reset != nil:
		return fail("RST_STREAM %s on stream %d: a stream error, but §6.9.2 requires a connection error FLOW_CONTROL_ERROR", *s.reset, id)
	case c.peer.readErr != nil:
		return pass("connection closed (without GOAWAY) after the SETTINGS that took stream %d's window to %s", id, window)
	}
	return fail("no GOAWAY: server %s the SETTINGS that took stream %d's window to %s", acked, id, window)
}
