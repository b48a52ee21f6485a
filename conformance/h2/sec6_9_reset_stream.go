package h2

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/net/http2"
)

// resetCap bounds the bytes sent on the reset stream after its RST_STREAM and the later upload:
// servers with ~2 GiB connection windows (nginx, Apache, haproxy once a stream sends DATA)
// cannot be exhausted in a test.
const resetCap = 4 << 20

// sec6_9ResetStreamConnectionWindow: "A receiver that receives a flow-controlled frame MUST
// always account for its contribution against the connection flow-control window, unless the
// receiver treats this as a connection error" (RFC 9113 §6.9). DATA on a stream the client
// reset — buffered before the RST_STREAM and arriving after it, as data in flight would — must
// be counted and then credited back, or the connection window leaks.
//
// A connection window of at most resetCap is used up entirely on the reset stream, so a later
// upload stalls unless those bytes are credited. A larger one is judged by credit instead: after
// resetCap bytes on the reset stream and an upload of at most half that, a server that credits
// but still owes the reset stream's bytes leaks them; one that credited nothing yet may be
// batching credit up to a threshold of its own, and then nothing can be judged.
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
	pre := min(c.peer.streams[a].sendWin, conn0, resetCap/8) / 2
	if err := c.sendBody(ctx, a, pre, bodyOpts{chunk: frameMax, pad: -1}); err != nil {
		return fail("stream %d: %v", a, err)
	}
	c.writeRST(a, http2.ErrCodeCancel)
	if err := c.sync(ctx); err != nil { // let credit for what the server consumed come in
		return fail("after RST_STREAM: %v", err)
	}
	// After the reset only the connection window applies.
	window, credit0 := c.peer.sendConn, c.peer.connCredit
	exhaust := window <= resetCap
	post := min(window, resetCap)
	buf := make([]byte, frameMax)
	var werr error
	for left := post; left > 0 && werr == nil; left -= frameMax {
		werr = c.writeData(a, false, buf[:min(left, frameMax)], -1)
	}
	// The PING round trip shows whether the server ended the connection over those frames; a
	// failed write says it did, and the frames received before tell how.
	err = werr
	if err == nil {
		err = c.sync(ctx)
	}
	if err != nil || c.peer.goaway != nil {
		c.grace(ctx, func() bool { return c.peer.readErr != nil })
		if why := endedOverResetData(c, a); why != "" {
			return skip(SkipConnectionEnded, "%s", why)
		}
		return fail("after %d bytes on reset stream %d: %v", post, a, err)
	}

	b, err := c.open("POST", "/upload", false)
	if err != nil {
		return fail("stream %d: %v", b, err)
	}
	size := min(conn0, resetCap)
	if !exhaust {
		size = min(conn0, post/2) // see judgeCredit
	}
	creditBefore := c.peer.connCredit
	err = c.sendBody(ctx, b, size, bodyOpts{chunk: frameMax, pad: -1, end: true})
	if err == nil {
		err = c.waitDone(ctx, b)
	}
	sb := c.peer.streams[b]
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fail("stalled: stream %d sent %d of %d bytes, connection window %d; %d bytes went to reset stream %d (%d after its RST_STREAM), the server credited %d on the connection since",
			b, sb.sent, size, c.peer.sendConn, pre+post, a, post, c.peer.connCredit-creditBefore)
	case err != nil:
		return fail("stream %d: %v", b, err)
	}
	answer, err := c.checkUpload(b, size)
	if err != nil {
		return fail("%v", err)
	}
	done := fmt.Sprintf("stream %d uploaded %d bytes (%s) after %d bytes on reset stream %d (%d after its RST_STREAM)",
		b, size, answer, pre+post, a, post)
	if !exhaust {
		return judgeCredit(ctx, c, done, window, credit0, pre, post, sb.sent)
	}
	// Everything sent has been consumed or discarded by now: the window should be back, up to
	// what a server batches (at most half the window, as servers crediting at half do).
	c.sync(ctx)
	c.grace(ctx, func() bool { return c.peer.sendConn >= conn0/2 })
	if c.peer.sendConn < conn0/2 {
		return fail("connection window leaked: %d of %d left after every byte was consumed or discarded (%d bytes on reset stream %d, %d of them after its RST_STREAM)",
			c.peer.sendConn, conn0, pre+post, a, post)
	}
	return pass("%s; connection window back to %d of %d", done, c.peer.sendConn, conn0)
}

// judgeCredit decides the case for a connection window too large to use up: window was its size
// (and credit0 the connection credit received) before post bytes went to the reset stream, and
// upload bytes to the next stream after them; up to pre bytes sent before may still be owed.
//
// A server that credits nothing may be batching credit up to a threshold: nothing to judge. One
// that credited something returns everything outstanding at that point, the reset stream's bytes
// (sent first) included, so with pre <= post/16 and upload <= post/2 what it can still owe is
// below post-pre: owing more means it kept the reset stream's bytes.
func judgeCredit(ctx context.Context, c *conn, done string, window, credit0, pre, post, upload int64) outcome {
	deficit := func() int64 { return window - c.peer.sendConn } // sent since and not credited
	c.sync(ctx)
	c.grace(ctx, func() bool { return deficit() <= post/2 })
	credited := c.peer.connCredit - credit0
	state := fmt.Sprintf("connection window %d before the reset stream's DATA and %d now; the server credited %d of the %d bytes sent since",
		window, c.peer.sendConn, credited, post+upload)
	switch {
	case deficit() <= post/2:
		return pass("%s; %s", done, state)
	case credited > 0 && deficit() >= post-pre:
		return fail("connection window leaked: none of the %d bytes on the reset stream came back (%s)", post, state)
	}
	why := "credited none of it yet: it may batch credit up to a threshold of its own"
	if credited > 0 {
		why = "credited part of it: the rest may wait for its threshold"
	}
	return skip(SkipCreditWithheld, "connection window too large to exhaust with at most %d bytes, and the server %s, so a leak cannot be observed (%s)",
		resetCap, why, state)
}

// endedOverResetData explains a connection the server ended in answer to DATA on reset stream
// a, or returns "". Such DATA breaks §5.1 ("MUST NOT send frames other than PRIORITY on a closed
// stream"), so ending the connection is the server's right; its window cannot be judged then.
func endedOverResetData(c *conn, a uint32) string {
	g := c.peer.goaway
	switch {
	case g != nil && g.code != http2.ErrCodeNo:
		return fmt.Sprintf("server answered DATA on reset stream %d with GOAWAY %s (a connection error, which §6.9 allows)", a, g.code)
	case g != nil:
		closed := "kept the connection open"
		if c.peer.readErr != nil {
			closed = "closed the connection"
		}
		return fmt.Sprintf("server answered DATA on reset stream %d with GOAWAY NO_ERROR (last stream %d) and %s: a shutdown instead of the connection error STREAM_CLOSED §5.1 permits, but no new stream can follow, so the window cannot be judged",
			a, g.last, closed)
	case c.peer.readErr != nil:
		return fmt.Sprintf("server closed the connection without GOAWAY after DATA on reset stream %d (a connection error, which §6.9 allows, without the GOAWAY §5.4.1 asks for)", a)
	}
	return ""
}
