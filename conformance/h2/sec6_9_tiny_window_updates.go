package h2conf

import (
	"context"

	"golang.org/x/net/http2"
)

// sec6_9TinyWindowUpdates: flow control must work at any window size and with any increment
// (RFC 9113 §6.9: the receiver decides both; §6.9.1: the sender stays within the window). The
// stream window starts at 16 bytes and is only ever raised by WINDOW_UPDATEs of 64 bytes, with
// less than 1 KiB open: /1m.bin must still arrive (16,384 such updates), in time, and never beyond
// the window. A server that waits for a "worthwhile" window before sending stalls here. (About a
// thousand round trips: scale the timeout on long-RTT links.)
func sec6_9TinyWindowUpdates(ctx context.Context, cl *client) outcome {
	const initial, increment, ceiling = 16, 64, 1000
	c, err := cl.dial(ctx, dialOpts{settings: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: initial}}})
	if err != nil {
		return fail("connect: %v", err)
	}
	id, err := c.open("GET", "/1m.bin", true)
	if err != nil {
		return fail("GET /1m.bin: %v", err)
	}
	s := c.peer.streams[id]
	var granted, updates int64
	var conn connBudget
	for !downloadEnded(c, id) {
		f, err := c.next(ctx)
		if err != nil {
			return fail("%s (%d WINDOW_UPDATEs of %d bytes sent)", downloadError(c, id, err), updates, increment)
		}
		if f.typ != http2.FrameData || f.stream != id || f.length == 0 {
			continue
		}
		if s.recvd > initial+granted {
			return fail("DATA s=%d len=%d took the stream %d bytes beyond its window (16 + %d granted)",
				id, f.length, s.recvd-initial-granted, granted)
		}
		if why := conn.overrun(c, &f); why != "" {
			return fail("%s", why)
		}
		for !f.endStream() && initial+granted-s.recvd+increment <= ceiling && initial+granted < oneMiB {
			c.writeWindowUpdate(id, increment)
			granted += increment
			updates++
		}
		c.writeWindowUpdate(0, f.length)
		conn.granted += int64(f.length)
	}
	if why := checkComplete(c, id); why != "" {
		return fail("%s", why)
	}
	return pass("1 MiB arrived through a 16-byte stream window raised %d bytes at a time (%d WINDOW_UPDATEs, at most %d bytes open), never exceeded",
		increment, updates, ceiling)
}
