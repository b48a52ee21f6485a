package h2conf

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
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
			if _, err := c.next(ctx); err != nil {
				return fmt.Errorf("waiting for window after %d of %d body bytes (stream window %d, connection window %d): %w",
					sent, n, s.sendWin, c.peer.sendConn, err)
			}
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
			return err
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
	return c.waitFor(ctx, func() bool { return s.ended || s.reset != nil || c.peer.closed() })
}

// grace gives the server a moment more for a frame that may follow (a late RST_STREAM).
func (c *conn) grace(ctx context.Context, cond func() bool) {
	gctx, cancel := context.WithTimeout(ctx, graceTime)
	defer cancel()
	c.waitFor(gctx, cond)
}

// uploadCount checks an /upload answer: :status 200 and the decimal byte count want.
func (c *conn) uploadCount(id uint32, want int64) error {
	s := c.peer.streams[id]
	if s.headers == nil || s.headers.status() != "200" {
		return fmt.Errorf("stream %d ended with %s, want :status 200", id, c.peer.streamEnd(id))
	}
	got, err := strconv.ParseInt(strings.TrimSpace(string(s.body)), 10, 64)
	if err != nil || got != want {
		return fmt.Errorf("POST /upload answered %q, want the body byte count %d", truncate(string(s.body), 20), want)
	}
	return nil
}
