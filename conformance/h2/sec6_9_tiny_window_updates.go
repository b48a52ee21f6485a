package h2

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/net/http2"
)

// sec6_9TinyWindowUpdates: flow control must work at any window size and with any increment
// (RFC 9113 §6.9: the receiver decides both; §6.9.1: the sender stays within the window). The
// stream window starts at 16 bytes and is only ever raised by WINDOW_UPDATEs of 64 bytes, with
// less than 1 KiB open: /1m.bin must still arrive (16,384 such updates), in time, and never beyond
// the window. (About a thousand round trips: scale the timeout on long-RTT links.)
//
// The client grants one increment per tick as well as on each DATA frame, so a server waiting for
// window is not left waiting on the client. RFC 9113 does not oblige a sender to send small
// frames: a server that sends nothing while less than 1 KiB is open fails on liveness, not on a
// MUST, and the reason says so.
func sec6_9TinyWindowUpdates(ctx context.Context, cl *client) outcome {
	const initial, increment, ceiling = 16, 64, 1000
	const tick = 5 * time.Millisecond
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
	open := func() int64 { return initial + granted - s.recvd }
	grant := func() {
		c.writeWindowUpdate(id, increment)
		granted += increment
		updates++
	}
	for !downloadEnded(c, id) {
		f, err := c.poll(ctx, tick)
		if errors.Is(err, errQuiet) {
			if open()+increment <= ceiling && initial+granted < oneMiB {
				grant()
			}
			continue
		}
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return fail("%s", tinyStall(s.bodyLen, open(), updates))
			}
			return fail("%s (%d WINDOW_UPDATEs of %d bytes sent)", downloadError(c, id, err), updates, increment)
		}
		if f.typ != http2.FrameData || f.stream != id || f.length == 0 {
			continue
		}
		if open() < 0 {
			return fail("DATA s=%d len=%d took the stream %d bytes beyond its window: %d received against SETTINGS_INITIAL_WINDOW_SIZE=16 + %d granted in %d WINDOW_UPDATEs",
				id, f.length, -open(), s.recvd, granted, updates)
		}
		if why := conn.overrun(c, &f); why != "" {
			return fail("%s", why)
		}
		for !f.endStream() && open()+increment <= ceiling && initial+granted < oneMiB {
			grant()
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

// tinyStall is the reason for a download that timed out with open bytes of window left.
func tinyStall(got, open, updates int64) string {
	const why = "RFC 9113 does not oblige a sender to send small frames: a liveness problem, not a MUST"
	if got == 0 {
		return fmt.Sprintf("the server never sent DATA while less than 1 KiB of window was open: 0 of %d bytes before the timeout, %d bytes open (%d WINDOW_UPDATEs of 64 bytes sent); %s",
			oneMiB, open, updates, why)
	}
	return fmt.Sprintf("stalled after %d of %d bytes with %d bytes of window open (%d WINDOW_UPDATEs of 64 bytes sent): the server stopped sending while less than 1 KiB was open; %s",
		got, oneMiB, open, updates, why)
}
