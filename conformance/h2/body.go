package h2

import (
	"context"
	"fmt"
	"math"

	"golang.org/x/net/http2"
)

// bodyOpts shapes a request body.
type bodyOpts struct {
	chunk int64 // most data bytes per frame; 0: as many as the windows and frame size allow
	pad   int   // padding octets per frame (clipped to fit the window); -1: unpadded
	end   bool  // END_STREAM on the last frame
}

// sendBody sends n data bytes on stream id as fast as the client's view of the server's windows
// allows, waiting for WINDOW_UPDATEs when they run out. A burst fills the windows exactly.
func (c *conn) sendBody(ctx context.Context, id uint32, n int64, o bodyOpts) error {
	s := c.peer.streams[id]
	chunk := o.chunk
	if chunk <= 0 {
		chunk = math.MaxInt64
	}
	var buf []byte
	for sent := int64(0); sent < n || n == 0 && o.end; {
		if s.reset != nil || s.ended || c.peer.closed() {
			return fmt.Errorf("stream %d ended by the server (%s) after %d of %d body bytes", id, c.peer.streamEnd(id), sent, n)
		}
		room := min(s.sendWin, c.peer.sendConn, int64(c.peer.maxFrame))
		if room < 1 && n > 0 {
			f, err := c.next(ctx)
			if err != nil {
				return fmt.Errorf("waiting for window after %d of %d body bytes (stream window %d, connection window %d): %w",
					sent, n, s.sendWin, c.peer.sendConn, err)
			}
			c.creditEcho(id, &f)
			continue
		}
		pad, d := -1, min(n-sent, chunk, room)
		if o.pad >= 0 {
			p := min(int64(o.pad), max(room-2, 0))
			pad, d = int(p), min(n-sent, chunk, room-1-p) // d is 0 when only the Pad Length fits
		}
		if int64(len(buf)) < d {
			buf = make([]byte, d)
		}
		sent += d
		if err := c.writeData(id, o.end && sent == n, buf[:d], pad); err != nil {
			// The server closed the connection; the frames it sent first (a GOAWAY) say how.
			c.grace(ctx, func() bool { return c.peer.readErr != nil })
			return fmt.Errorf("stream %d: %w (%s)", id, err, c.peer.streamEnd(id))
		}
		if n == 0 {
			break
		}
	}
	return nil
}

// waitDone waits until the server ends the stream (END_STREAM or RST_STREAM) or the connection.
func (c *conn) waitDone(ctx context.Context, id uint32) error {
	s := c.peer.streams[id]
	for !s.ended && s.reset == nil && !c.peer.closed() {
		f, err := c.next(ctx)
		if err != nil {
			return err
		}
		c.creditEcho(id, &f)
	}
	return nil
}

// creditEcho gives back the window a response DATA frame on upload stream id used, so a server
// that echoes the body (nghttpd --echo-upload) is not held up by the client's 64 KiB windows.
func (c *conn) creditEcho(id uint32, f *frame) {
	if f.typ != http2.FrameData || f.stream != id || f.length == 0 {
		return
	}
	c.writeWindowUpdate(0, f.length)
	if !f.endStream() {
		c.writeWindowUpdate(id, f.length)
	}
}

// grace gives the server a moment more for a frame that may follow (a late RST_STREAM).
func (c *conn) grace(ctx context.Context, cond func() bool) {
	gctx, cancel := context.WithTimeout(ctx, graceTime)
	defer cancel()
	c.waitFor(gctx, cond)
}
