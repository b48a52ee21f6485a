package h2

import (
	"context"

	"golang.org/x/net/http2"
)

// sec6_9_1RespectsClientStreamWindow: "A sender MUST NOT send a flow-controlled frame with a
// length that exceeds the space available in either of the flow-control windows advertised by
// the receiver" (RFC 9113 §6.9.1), with the stream windows as the binding limit: four /1m.bin
// downloads get 8,000-byte stream windows, smaller than any frame a server sends by choice
// (16,384, nginx's 8 KiB chunks), and a connection window of 16 MiB and more.
//
// A grant sent in answer to a frame can excuse the next frame, which the server may have sent
// before the grant reached it; so a stream is credited (back to 8,000 open) only when a PING
// round trip found it quiet, its window used up or nearly (at most half open). Until then the
// server's view of the window is the client's, and any frame beyond it is a violation, read
// from the frames received: 8,000 + granted - received < 0.
func sec6_9_1RespectsClientStreamWindow(ctx context.Context, cl *client) outcome {
	const window, downloads = 8000, 4
	conn := connBudget{granted: 16 << 20}
	c, err := cl.dial(ctx, dialOpts{
		settings:   []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: window}},
		connWindow: uint32(conn.granted),
	})
	if err != nil {
		return fail("connect: %v", err)
	}
	type account struct {
		granted, grants int64
		atPing          int64 // bytes received when the fencing PING went out
	}
	acct := map[uint32]*account{}
	var ids []uint32
	for range downloads {
		id, err := c.open("GET", "/1m.bin", true)
		if err != nil {
			return fail("GET /1m.bin: %v", err)
		}
		ids = append(ids, id)
		acct[id] = &account{}
	}
	avail := func(id uint32) int64 { return window + acct[id].granted - c.peer.streams[id].recvd }
	var (
		fence                   *[8]byte // the PING whose ACK shows which streams stopped
		frames, filled, largest int64
		fences                  int
	)
	for !allEnded(c, ids) {
		f, err := c.next(ctx)
		if err != nil {
			return fail("%s", downloadError(c, firstOpen(c, ids), err))
		}
		if a := acct[f.stream]; a != nil && f.typ == http2.FrameData && f.length > 0 {
			frames++
			largest = max(largest, int64(f.length))
			if left := avail(f.stream); left < 0 {
				return fail("DATA s=%d len=%d took the stream %d bytes beyond its window: %d received against SETTINGS_INITIAL_WINDOW_SIZE=%d%s + %d granted in %d WINDOW_UPDATEs, each sent only after a PING round trip found the stream stopped; connection window %d open",
					f.stream, f.length, -left, c.peer.streams[f.stream].recvd, window, c.ackNote(), a.granted, a.grants, conn.avail(c)+int64(f.length))
			} else if left == 0 {
				filled++
			}
			if why := conn.overrun(c, &f); why != "" {
				return fail("%s", why)
			}
		}
		if fence != nil && c.peer.pingAck == *fence {
			for _, id := range ids {
				a, s := acct[id], c.peer.streams[id]
				if left := avail(id); !downloadEnded(c, id) && s.recvd == a.atPing && left < window {
					c.writeWindowUpdate(id, uint32(window-left))
					a.granted += window - left
					a.grants++
				}
			}
			fence = nil
		}
		if fence == nil && anyLow(c, ids, func(id uint32) bool { return avail(id) <= window/2 }) {
			p, err := c.ping()
			if err != nil {
				return fail("PING: %v", err)
			}
			fence, fences = &p, fences+1
			for _, id := range ids {
				acct[id].atPing = c.peer.streams[id].recvd
			}
		}
		if err := conn.topUp(c, 8<<20, 8<<20); err != nil {
			return fail("WINDOW_UPDATE: %v", err)
		}
	}
	for _, id := range ids {
		if why := checkComplete(c, id); why != "" {
			return fail("%s", why)
		}
	}
	return pass("%d x 1 MiB arrived in %d DATA frames (largest %d bytes) through %d-byte stream windows credited after %d PING round trips; %d frames used a stream window up exactly, none went beyond it",
		downloads, frames, largest, window, fences, filled)
}

// allEnded reports whether every stream of ids ended.
func allEnded(c *conn, ids []uint32) bool {
	for _, id := range ids {
		if !downloadEnded(c, id) {
			return false
		}
	}
	return true
}

// anyLow reports whether a stream of ids still open satisfies low.
func anyLow(c *conn, ids []uint32, low func(uint32) bool) bool {
	for _, id := range ids {
		if !downloadEnded(c, id) && low(id) {
			return true
		}
	}
	return false
}
