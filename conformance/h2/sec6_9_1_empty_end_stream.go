package h2

import (
	"context"
	"fmt"

	"golang.org/x/net/http2"
)

// sec6_9_1EmptyEndStreamAtZeroWindow: "Frames with zero length with the END_STREAM flag set
// (that is, an empty DATA frame) MAY be sent if there is no available space in either
// flow-control window" (RFC 9113 §6.9.1). The body fills the stream (or connection) window
// exactly and the empty END_STREAM frame follows in the same write, before any credit can.
func sec6_9_1EmptyEndStreamAtZeroWindow(ctx context.Context, cl *client) outcome {
	c, err := cl.dial(ctx, dialOpts{})
	if err != nil {
		return fail("connect: %v", err)
	}
	id, err := c.open("POST", "/upload", false)
	if err != nil {
		return fail("POST /upload: %v", err)
	}
	s := c.peer.streams[id]
	fill := min(s.sendWin, c.peer.sendConn)
	if fill > 64<<20 {
		return skip(SkipWindowTooLarge, "the server's window is %d bytes (stream %d, connection %d): too large to fill in a test", fill, s.sendWin, c.peer.sendConn)
	}
	if err := c.sendBody(ctx, id, fill, bodyOpts{pad: -1}); err != nil {
		return fail("filling the window: %v", err)
	}
	if err := c.writeData(id, true, nil, -1); err != nil {
		return fail("empty DATA: %v", err)
	}
	windows := fmt.Sprintf("stream window %d, connection window %d left by the server's SETTINGS and WINDOW_UPDATEs", s.sendWin, c.peer.sendConn)
	if err := c.waitDone(ctx, id); err != nil {
		return fail("no answer after %d bytes and an empty END_STREAM DATA frame (%s): %v", fill, windows, err)
	}
	if s.reset != nil || c.peer.goaway != nil && c.peer.goaway.code != http2.ErrCodeNo {
		return fail("%s after %d bytes and an empty END_STREAM DATA frame (%s)", c.peer.streamEnd(id), fill, windows)
	}
	answer, err := c.checkUpload(id, fill)
	if err != nil {
		return fail("%v", err)
	}
	return pass("%d bytes filled the window to 0, the empty END_STREAM DATA was accepted: :status 200, %s", fill, answer)
}
