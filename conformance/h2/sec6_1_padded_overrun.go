package h2

import (
	"context"
	"errors"

	"golang.org/x/net/http2"
)

// sec6_1PaddedOverrun: "The entire DATA frame payload is included in flow control, including the
// Pad Length and Padding fields if present" (RFC 9113 §6.1), so padding is charged to the
// receiver's windows exactly like data.
//
// The client sends window+1 octets whose last frame is padded (Pad Length + 255 octets of
// padding): the data octets alone (window-255) fit the window, only the padding overruns it. The
// RFC obliges the sender to stay within the window (§6.9.1) but lets the receiver choose whether
// to answer an overrun: "A receiver MAY respond with a stream error or connection error of type
// FLOW_CONTROL_ERROR if it is unable to accept a frame" (§6.9). So FLOW_CONTROL_ERROR passes, and
// silence is judged against the same server's answer to an unpadded overrun of the same size on a
// second connection: a server that rejects that one but accepts the padded one charged its
// window less than the payload, which §6.1 forbids. A server that accepts both does not enforce
// its window at all: that is its right, and its padding accounting cannot be seen this way.
func sec6_1PaddedOverrun(ctx context.Context, cl *client) outcome {
	dialZero := func() (*conn, error) {
		return cl.dial(ctx, dialOpts{settings: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: 0}}})
	}
	c, err := dialZero()
	if err != nil {
		return fail("connect: %v", err)
	}
	padded, err := sendOverrun(ctx, c, 255)
	switch {
	case errors.Is(err, errWindowTooLarge):
		return skip(SkipWindowTooLarge, "the server's window is %d bytes (stream %d, connection %d): too large to overrun in a test",
			padded.window, padded.stream, padded.connWin)
	case err != nil:
		return fail("padded overrun: %v", err)
	case padded.flowControlError():
		return pass("%s after %s: padding charged", padded.answer(), padded.describe())
	case padded.answered() && padded.target != "POST /upload":
		return skip(SkipStreamEnded, "server ended %s with %s before the padded overrun could be judged", padded.target, padded.answer())
	case padded.answered():
		return fail("%s after %s, want FLOW_CONTROL_ERROR (the padding took the payload past the window)", padded.answer(), padded.describe())
	case padded.target != "POST /upload" && c.peer.streams[padded.id].credit > 0:
		return skip(SkipBodyConsumed, "server consumed the GET's body and credited %d bytes; its window (%d) is not smaller than a frame (%d), so no overrun can be forced",
			c.peer.streams[padded.id].credit, padded.window, c.peer.maxFrame)
	}

	c2, err := dialZero()
	if err != nil {
		return fail("connection 2, for the unpadded overrun: %v", err)
	}
	plain, err := sendOverrun(ctx, c2, -1)
	switch {
	case errors.Is(err, errWindowTooLarge):
		return skip(SkipWindowTooLarge, "padded overrun answered %s; connection 2's window is %d bytes, too large to overrun for comparison", padded.answer(), plain.window)
	case err != nil:
		return fail("unpadded overrun on connection 2: %v", err)
	case plain.flowControlError():
		return fail("padding not charged: %s answered %s, but on connection 2 %s answered %s",
			padded.describe(), padded.answer(), plain.describe(), plain.answer())
	case plain.answered():
		return skip(SkipStreamEnded, "padded overrun answered %s; the unpadded one on connection 2 (%s) answered %s, not a flow-control error, so the two cannot be compared",
			padded.answer(), plain.target, plain.answer())
	case plain.target != "POST /upload" && c2.peer.streams[plain.id].credit > 0:
		return skip(SkipBodyConsumed, "padded overrun answered %s; on connection 2 the server consumed the GET's body and credited %d bytes, so no unpadded overrun could be forced for comparison",
			padded.answer(), c2.peer.streams[plain.id].credit)
	}
	return skip(SkipWindowNotEnforced, "the server accepts DATA beyond its window even unpadded (connection 2: %s answered %s), which §6.9 allows (a receiver MAY answer an overrun), so whether it charges padding cannot be seen (connection 1, padded: answered %s)",
		plain.describe(), plain.answer(), padded.answer())
}
