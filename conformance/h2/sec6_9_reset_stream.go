package h2conf

import (
	"context"
	"errors"

	"golang.org/x/net/http2"
)

// sec6_9ResetStreamConnectionWindow: "A receiver that receives a flow-controlled frame MUST
// always account for its contribution against the connection flow-control window, unless the
// receiver treats this as a connection error" (RFC 9113 §6.9). DATA on a stream the client
// reset — buffered before the RST_STREAM and arriving after it, as data in flight would — must
// be counted and then credited back, or the connection window leaks: later streams stall when
// all of it is gone, and the window never returns to its size.
func sec6_9ResetStreamConnectionWindow(ctx context.Context, cl *client) outcome {
	c, err := cl.dial(ctx, dialOpts{})
	if err != nil {
		return fail("connect: %v", err)
	}
	conn0 := c.peer.sendConn
	frameMax := min(int64(c.peer.maxFrame), 16<<10)

	a, err := c.open("POST", "/upload", false)
	if err != nil {
		return fail("stream 1: %v", err)
	}
	pre := min(c.peer.streams[a].sendWin, conn0) / 2
	if err := c.sendBody(ctx, a, pre, bodyOpts{chunk: frameMax, pad: -1}); err != nil {
		return fail("stream %d: %v", a, err)
	}
	c.writeRST(a, http2.ErrCodeCancel)
	if err := c.sync(ctx); err != nil { // let credit for what the server consumed come in
		return fail("after RST_STREAM: %v", err)
	}
	// After the reset only the connection window applies: use all of it on the dead stream, so
	// the next upload can start only once the server credits these bytes back.
	post := c.peer.sendConn
	buf := make([]byte, frameMax)
	for left := post; left > 0; {
		n := min(left, frameMax)
		if err := c.writeData(a, false, buf[:n], -1); err != nil {
			return fail("DATA after RST_STREAM: %v", err)
		}
		left -= n
	}

	b, err := c.open("POST", "/upload", false)
	if err != nil {
		return fail("stream %d: %v", b, err)
	}
	creditBefore := c.peer.connCredit
	err = c.sendBody(ctx, b, conn0, bodyOpts{chunk: frameMax, pad: -1, end: true})
	if err == nil {
		err = c.waitDone(ctx, b)
	}
	sb := c.peer.streams[b]
	switch {
	case c.peer.goaway != nil && c.peer.goaway.code != http2.ErrCodeNo:
		return skip("server answered DATA on the reset stream with GOAWAY %s (a connection error, which §6.9 allows)", c.peer.goaway.code)
	case errors.Is(err, context.DeadlineExceeded):
		return fail("stalled: stream %d sent %d of %d bytes, connection window %d; %d bytes went to reset stream %d (%d after its RST_STREAM), the server credited %d on the connection since",
			b, sb.sent, conn0, c.peer.sendConn, pre+post, a, post, c.peer.connCredit-creditBefore)
	case err != nil:
		return fail("stream %d: %v", b, err)
	}
	if err := c.uploadCount(b, conn0); err != nil {
		return fail("%v", err)
	}
	// Everything sent has been consumed or discarded by now: the window should be back, up to
	// what a server batches (at most half the window, as servers crediting at half do).
	c.sync(ctx)
	c.grace(ctx, func() bool { return c.peer.sendConn >= conn0/2 })
	if c.peer.sendConn < conn0/2 {
		return fail("connection window leaked: %d of %d left after every byte was consumed or discarded (%d bytes on reset stream %d, %d of them after its RST_STREAM)",
			c.peer.sendConn, conn0, pre+post, a, post)
	}
	return pass("stream %d uploaded %d bytes after %d bytes on reset stream %d (%d after its RST_STREAM); connection window back to %d of %d",
		b, conn0, pre+post, a, post, c.peer.sendConn, conn0)
}
