package h2

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/net/http2"
)

// overrun is DATA sent one octet beyond the server's receive window, and how it went.
//
// Credit can only follow consumed data, so the overrun must come before the server could consume
// anything: one frame of window+1 octets on a fresh POST /upload. When the server's window is not
// smaller than its SETTINGS_MAX_FRAME_SIZE that takes more than one frame, and the overrun goes
// instead to a GET /1m.bin with a body, which a server answering a GET normally leaves unread (the
// client's own window is 0, so that response never completes).
type overrun struct {
	c       *conn
	target  string // "POST /upload" or "GET /1m.bin with a body"
	id      uint32
	window  int64 // the smaller of the server's stream and connection windows before it
	stream  int64 // the server's stream window before it
	connWin int64 // the server's connection window before it
	frames  int
	data    int64 // data octets sent: window+1 unpadded, window-pad padded
	pad     int   // padding octets in the last frame (after its Pad Length octet); -1: unpadded
	credit0 int64 // connection credit received before it
}

// overrunCap bounds the window an overrun is tried on: larger ones cannot be filled in a test.
const overrunCap = 64 << 20

// errWindowTooLarge: the server's window exceeds overrunCap.
var errWindowTooLarge = errors.New("window too large to overrun in a test")

// sendOverrun sends window+1 flow-controlled octets on a fresh stream of c, a connection whose
// own initial window is 0. With pad >= 0 the last frame is padded, Pad Length octet and pad
// octets of padding, so the data octets alone (window-pad) fit the window and only the padding
// takes the payload past it.
func sendOverrun(ctx context.Context, c *conn, pad int) (*overrun, error) {
	o := &overrun{c: c, target: "POST /upload", pad: pad}
	var err error
	o.id, err = c.open("POST", "/upload", false)
	if err == nil {
		err = c.sync(ctx) // a server may grant a new stream window at once: count that in
	}
	if err != nil {
		return o, fmt.Errorf("%s: %w", o.target, err)
	}
	if min(c.peer.streams[o.id].sendWin, c.peer.sendConn)+1 > int64(c.peer.maxFrame) {
		c.writeRST(o.id, http2.ErrCodeCancel)
		o.target = "GET /1m.bin with a body"
		if o.id, err = c.open("GET", "/1m.bin", false); err == nil {
			err = c.sync(ctx)
		}
		if err != nil {
			return o, fmt.Errorf("%s: %w", o.target, err)
		}
	}
	o.stream, o.connWin = c.peer.streams[o.id].sendWin, c.peer.sendConn
	o.window, o.credit0 = min(o.stream, o.connWin), c.peer.connCredit
	if o.window > overrunCap {
		return o, errWindowTooLarge
	}
	if pad > int(o.window) {
		pad = int(o.window) // the data octets must fit the window: at most window-pad of them
		o.pad = pad
	}
	// The padded frame goes last and carries as much as one frame can: what precedes it fits.
	left := o.window + 1
	padded := int64(0)
	if pad >= 0 {
		padded = min(left, int64(c.peer.maxFrame))
		left -= padded
	}
	for left > 0 {
		n := min(left, int64(c.peer.maxFrame))
		if err := c.writeData(o.id, false, make([]byte, n), -1); err != nil {
			return o, fmt.Errorf("sending DATA: %w", err)
		}
		o.frames++
		o.data += n
		left -= n
	}
	if padded > 0 {
		d := padded - 1 - int64(pad)
		if err := c.writeData(o.id, false, make([]byte, d), pad); err != nil {
			return o, fmt.Errorf("sending padded DATA: %w", err)
		}
		o.frames++
		o.data += d
	}
	// A PING round trip, then a grace for a late RST_STREAM: the server's answer, if any.
	if err := c.sync(ctx); err != nil && errors.Is(err, context.DeadlineExceeded) && !o.answered() {
		return o, fmt.Errorf("no answer to a PING after the overrun: %w", err)
	}
	c.grace(ctx, o.answered)
	return o, nil
}

func (o *overrun) answered() bool {
	s := o.c.peer.streams[o.id]
	return s.reset != nil || o.c.peer.goaway != nil || o.c.peer.readErr != nil
}

// flowControlError reports RST_STREAM or GOAWAY FLOW_CONTROL_ERROR, or a close without GOAWAY.
func (o *overrun) flowControlError() bool {
	s, p := o.c.peer.streams[o.id], &o.c.peer
	return s.reset != nil && *s.reset == http2.ErrCodeFlowControl ||
		p.goaway != nil && p.goaway.code == http2.ErrCodeFlowControl ||
		s.reset == nil && p.goaway == nil && p.readErr != nil
}

// answer names what the server answered the overrun with, from the frames received.
func (o *overrun) answer() string {
	s, p := o.c.peer.streams[o.id], &o.c.peer
	switch {
	case s.reset != nil || p.goaway != nil && p.goaway.code != http2.ErrCodeNo:
		return p.streamEnd(o.id)
	case p.goaway != nil:
		return fmt.Sprintf("GOAWAY NO_ERROR (last stream %d)", p.goaway.last)
	case p.readErr != nil:
		return "connection closed without GOAWAY"
	}
	return fmt.Sprintf("nothing (PING round trip done; the server credited %d on the stream and %d on the connection since)",
		s.credit, p.connCredit-o.credit0)
}

// describe says what was sent, with the windows as the server's frames had set them.
func (o *overrun) describe() string {
	what := fmt.Sprintf("%d octets in %d DATA frame(s)", o.window+1, o.frames)
	if o.pad >= 0 {
		what = fmt.Sprintf("%d octets in %d DATA frame(s), the last padded: %d data octets + Pad Length + %d octets of padding",
			o.window+1, o.frames, o.data, o.pad)
	}
	return fmt.Sprintf("%s on %s (stream window %d, connection window %d before)", what, o.target, o.stream, o.connWin)
}
