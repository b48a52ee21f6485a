package h2

import (
	"context"
	"errors"

	"golang.org/x/net/http2"
)

// sec6_9_1EnforcesReceiveWindow: "A sender MUST NOT send a flow-controlled frame with a length
// that exceeds the space available in either of the flow-control windows advertised by the
// receiver" (RFC 9113 §6.9.1); a receiver that lets it pass buffers what it never granted. The
// client sends window+1 octets before the server can consume any (see overrun).
func sec6_9_1EnforcesReceiveWindow(ctx context.Context, cl *client) outcome {
	c, err := cl.dial(ctx, dialOpts{settings: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: 0}}})
	if err != nil {
		return fail("connect: %v", err)
	}
	o, err := sendOverrun(ctx, c, -1)
	switch {
	case errors.Is(err, errWindowTooLarge):
		return skip(SkipWindowTooLarge, "the server's window is %d bytes (stream %d, connection %d): too large to overrun in a test", o.window, o.stream, o.connWin)
	case err != nil:
		return fail("%v", err)
	}
	s := c.peer.streams[o.id]
	switch {
	case o.flowControlError():
		return pass("%s after %s", o.answer(), o.describe())
	case o.answered() && o.target != "POST /upload":
		return skip(SkipStreamEnded, "server ended %s with %s before the overrun could be judged", o.target, o.answer())
	case o.answered():
		return fail("%s after %s, want FLOW_CONTROL_ERROR", o.answer(), o.describe())
	case o.target != "POST /upload" && s.credit > 0:
		return skip(SkipBodyConsumed, "server consumed the GET's body and credited %d bytes; its window (%d) is not smaller than a frame (%d), so no overrun can be forced",
			s.credit, o.window, c.peer.maxFrame)
	}
	return fail("%s answered %s, want RST_STREAM/GOAWAY FLOW_CONTROL_ERROR", o.describe(), o.answer())
}
