package h2

import (
	"context"

	"golang.org/x/net/http2"
)

// sec6_9_1RespectsClientWindow: "A sender MUST NOT send a flow-controlled frame with a length
// that exceeds the space available in either of the flow-control windows advertised by the
// receiver" (RFC 9113 §6.9.1), checked frame by frame. Four /1m.bin downloads have 16 KiB stream
// windows refilled at half, and share a connection window the client tops up in 8 KiB steps only
// when less than 4 KiB is left, so the connection window is the tighter one most of the time.
// The stream windows are credited in answer to frames, so a credit may excuse a frame the server
// sent before it got it: 6.9.1-respects-client-stream-window is the case for those.
func sec6_9_1RespectsClientWindow(ctx context.Context, cl *client) outcome {
	const streamWindow, step, low, downloads = 16 << 10, 8 << 10, 4 << 10, 4
	c, err := cl.dial(ctx, dialOpts{settings: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: streamWindow}}})
	if err != nil {
		return fail("connect: %v", err)
	}
	granted := map[uint32]int64{}
	var ids []uint32
	for range downloads {
		id, err := c.open("GET", "/1m.bin", true)
		if err != nil {
			return fail("GET /1m.bin: %v", err)
		}
		ids = append(ids, id)
	}
	var conn connBudget
	var frames, connBound int // DATA frames; those sent while the connection window was the tighter
	for !allEnded(c, ids) {
		f, err := c.next(ctx)
		if err != nil {
			return fail("%s", downloadError(c, firstOpen(c, ids), err))
		}
		s := c.peer.streams[f.stream]
		if f.typ != http2.FrameData || s == nil || f.length == 0 {
			continue
		}
		streamAvail := streamWindow + granted[f.stream] - s.recvd
		if streamAvail < 0 {
			return fail("DATA s=%d len=%d took the stream %d bytes beyond its window: %d received against SETTINGS_INITIAL_WINDOW_SIZE=16384 + %d granted",
				f.stream, f.length, -streamAvail, s.recvd, granted[f.stream])
		}
		if why := conn.overrun(c, &f); why != "" {
			return fail("%s", why)
		}
		frames++
		if conn.avail(c) < streamAvail { // before this frame, as the server saw them
			connBound++
		}
		if !s.ended && streamAvail <= streamWindow/2 {
			c.writeWindowUpdate(f.stream, uint32(streamWindow-streamAvail))
			granted[f.stream] += streamWindow - streamAvail
		}
		if err := conn.topUp(c, low, step); err != nil {
			return fail("WINDOW_UPDATE: %v", err)
		}
	}
	for _, id := range ids {
		if why := checkComplete(c, id); why != "" {
			return fail("%s", why)
		}
	}
	return pass("%d x 1 MiB arrived in %d DATA frames, none beyond its stream window or the connection window (the tighter one for %d of them)",
		downloads, frames, connBound)
}

func firstOpen(c *conn, ids []uint32) uint32 {
	for _, id := range ids {
		if !downloadEnded(c, id) {
			return id
		}
	}
	return ids[0]
}
