package h2

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/net/http2"
)

// sec6_9_2InitialWindowOverflow: "An endpoint MUST treat a change to
// SETTINGS_INITIAL_WINDOW_SIZE that causes any flow-control window to exceed the maximum size as
// a connection error of type FLOW_CONTROL_ERROR" (RFC 9113 §6.9.2).
//
// The client's initial window is 0 and two streams stay open: GET /1m.bin, whose response waits
// for window (a server that checks a window only when it sends on it, like x/net, meets the
// overflow there), and POST /upload with its body not started, open whatever the server does with
// the GET (Apache sends no response HEADERS at window 0, so none are awaited). WINDOW_UPDATEs take
// both windows to 2^31-1 less what the server sent; the client never credits the connection
// (65,535), and a +65,536 change of the initial window then pushes the windows past 2^31-1.
// Every window a reason names is computed from the frames: the client's SETTINGS and
// WINDOW_UPDATEs, and the DATA received (which must stay within them, §6.9.1).
func sec6_9_2InitialWindowOverflow(ctx context.Context, cl *client) outcome {
	c, err := cl.dial(ctx, dialOpts{settings: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: 0}}})
	if err != nil {
		return fail("connect: %v", err)
	}
	get, err := c.open("GET", "/1m.bin", true)
	if err != nil {
		return fail("GET /1m.bin: %v", err)
	}
	post, err := c.open("POST", "/upload", false)
	if err == nil {
		err = c.sync(ctx) // the server has opened both streams once it answers the PING
	}
	if err != nil {
		return fail("POST /upload: %v", err)
	}
	both := []uint32{get, post}
	if why := c.beyondOwnWindow(both); why != "" {
		return fail("%s, before any window change (§6.9.1)", why)
	}
	if c.peer.closed() {
		return fail("the server ended the connection (%s) before the windows were raised", c.peer.streamEnd(post))
	}
	const maxWindow = 1<<31 - 1
	var ids []uint32 // the streams still open, whose windows are raised by 2^31-1
	before := map[uint32]int64{}
	for _, id := range both {
		if s := c.peer.streams[id]; !s.ended && s.reset == nil {
			ids = append(ids, id)
			before[id] = c.recvWindow(id)
			c.writeWindowUpdate(id, maxWindow)
		}
	}
	if len(ids) == 0 {
		return skip(SkipStreamEnded, "both streams ended (%s, %s) before the windows could be raised", c.peer.streamEnd(get), c.peer.streamEnd(post))
	}
	if err := c.sync(ctx); err != nil {
		return fail("after WINDOW_UPDATE +2147483647: %v", err)
	}
	if why := c.beyondOwnWindow(ids); why != "" {
		return fail("%s (§6.9.1)", why)
	}
	if id, code := resetOf(c, ids); id != 0 {
		// The window before is at most 0 (initial 0, nothing granted), so the update is legal.
		return fail("RST_STREAM %s on stream %d in answer to WINDOW_UPDATE +2147483647, which took its window from %d to %d (SETTINGS_INITIAL_WINDOW_SIZE=0%s, %d bytes of DATA received): within 2^31-1, legal",
			code, id, before[id], before[id]+maxWindow, c.ackNote(), c.peer.streams[id].recvd)
	}
	acks := c.peer.acks
	c.writeSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 65536})
	goneOrReset := func() bool {
		id, _ := resetOf(c, ids)
		return c.peer.goaway != nil || c.peer.readErr != nil || id != 0
	}
	err = c.sync(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || goneOrReset() {
		c.grace(ctx, goneOrReset)
		if id, _ := resetOf(c, ids); id != 0 && c.peer.goaway == nil {
			// A server may reset the streams before its GOAWAY: give that a moment too.
			c.grace(ctx, func() bool { return c.peer.goaway != nil || c.peer.readErr != nil })
		}
	}
	if why := c.beyondOwnWindow(ids); why != "" {
		return fail("%s (§6.9.1)", why)
	}
	// The windows the change made, less every DATA frame received since (sent before the server
	// applied it or after): a lower bound, exact when nothing was in flight.
	var over []uint32
	for _, id := range ids {
		if c.recvWindow(id) > maxWindow {
			over = append(over, id)
		}
	}
	if len(over) == 0 {
		return skip(SkipWindowUsed, "no stream window past 2^31-1 after SETTINGS_INITIAL_WINDOW_SIZE 0 -> 65536 (%s by the frames): the server's DATA used the room",
			windowList(c, ids, get))
	}
	window := fmt.Sprintf("%s past 2^31-1 (%s by the frames)", plural(len(over), "stream window", "stream windows"), windowList(c, over, get))
	if errors.Is(err, context.DeadlineExceeded) && !goneOrReset() {
		return fail("no GOAWAY and no PING ACK after the SETTINGS that took the %s", window)
	}

	acked := "did not ACK"
	if c.peer.acks > acks {
		acked = "ACKed"
	}
	id, code := resetOf(c, ids)
	switch {
	case c.peer.goaway != nil && c.peer.goaway.code == http2.ErrCodeFlowControl:
		return pass("GOAWAY FLOW_CONTROL_ERROR after SETTINGS_INITIAL_WINDOW_SIZE 0 -> 65536 took the %s (server %s the SETTINGS first)", window, acked)
	case c.peer.goaway != nil:
		return fail("GOAWAY %s, want FLOW_CONTROL_ERROR, after the SETTINGS that took the %s", c.peer.goaway.code, window)
	case id != 0:
		return fail("RST_STREAM %s on stream %d after the SETTINGS that took the %s: a stream error, but §6.9.2 requires a connection error FLOW_CONTROL_ERROR", code, id, window)
	case c.peer.readErr != nil:
		return pass("connection closed (without GOAWAY) after the SETTINGS that took the %s", window)
	}
	return fail("no GOAWAY: server %s the SETTINGS that took the %s", acked, window)
}

// resetOf returns the first of ids the server reset, with the code, or 0.
func resetOf(c *conn, ids []uint32) (uint32, http2.ErrCode) {
	for _, id := range ids {
		if s := c.peer.streams[id]; s.reset != nil {
			return id, *s.reset
		}
	}
	return 0, 0
}

// windowList names the streams and their receive windows as the frames show them:
// "1 GET 2147549183, 3 POST 2147549183".
func windowList(c *conn, ids []uint32, get uint32) string {
	var parts []string
	for _, id := range ids {
		method := "POST"
		if id == get {
			method = "GET"
		}
		parts = append(parts, fmt.Sprintf("%d %s %d", id, method, c.recvWindow(id)))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
