package h2

import (
	"context"
	"errors"
	"fmt"
)

// defaultWindow is every flow-control window's size before SETTINGS or WINDOW_UPDATEs change it.
const defaultWindow = 65535

// connBudget is the client's own connection receive window: what it granted the server.
type connBudget struct {
	granted int64 // WINDOW_UPDATE increments on stream 0 sent (dialOpts.connWindow included)
}

func (b *connBudget) avail(c *conn) int64 { return defaultWindow + b.granted - c.peer.recvConn }

// topUp grants step bytes at a time while less than low is left.
func (b *connBudget) topUp(c *conn, low, step int64) error {
	for b.avail(c) < low {
		if err := c.writeWindowUpdate(0, uint32(step)); err != nil {
			return err
		}
		b.granted += step
	}
	return nil
}

// overrun describes a DATA frame that went beyond the connection window, or "".
func (b *connBudget) overrun(c *conn, f *frame) string {
	if a := b.avail(c); a < 0 {
		return fmt.Sprintf("DATA s=%d len=%d took the connection %d bytes beyond its window (%d granted in all)",
			f.stream, f.length, -a, defaultWindow+b.granted)
	}
	return ""
}

// downloadError explains why a download loop stopped early, as a failure reason.
func downloadError(c *conn, id uint32, err error) string {
	s := c.peer.streams[id]
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("stalled: stream %d got %d of %d bytes before the timeout, with %d bytes of its window and %d of the connection's open (granted less received)",
			id, s.bodyLen, oneMiB, c.recvWindow(id), c.recvWindow(0))
	case s.reset != nil || c.peer.goaway != nil:
		return fmt.Sprintf("%s after %d of %d bytes on stream %d", c.peer.streamEnd(id), s.bodyLen, oneMiB, id)
	}
	return fmt.Sprintf("stream %d after %d bytes: %v", id, s.bodyLen, err)
}

// downloadEnded reports whether stream id ended, by END_STREAM, reset or a dead connection.
func downloadEnded(c *conn, id uint32) bool {
	s := c.peer.streams[id]
	return s.ended || s.reset != nil || c.peer.closed()
}

// checkComplete verifies a finished /1m.bin download.
func checkComplete(c *conn, id uint32) string {
	s := c.peer.streams[id]
	switch {
	case !s.ended || s.reset != nil:
		return fmt.Sprintf("stream %d: %s after %d bytes", id, c.peer.streamEnd(id), s.bodyLen)
	case s.headers == nil || s.headers.status() != "200":
		return fmt.Sprintf("stream %d: %s, want :status 200", id, c.peer.streamEnd(id))
	case s.bodyLen != oneMiB:
		return fmt.Sprintf("stream %d: body of %d bytes, want %d", id, s.bodyLen, oneMiB)
	}
	return ""
}

const oneMiB = 1 << 20
