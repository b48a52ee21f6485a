package h2

import (
	"context"

	"golang.org/x/net/http2"
)

// sec6_9_3WindowReductionInFlight: "When the value of SETTINGS_INITIAL_WINDOW_SIZE changes, a
// receiver MUST adjust the size of all stream flow-control windows that it maintains by the
// difference ... A change to SETTINGS_INITIAL_WINDOW_SIZE can cause the available space in a
// flow-control window to become negative. A sender MUST track the negative flow-control window
// and MUST NOT send new flow-controlled frames until it receives WINDOW_UPDATE frames that cause
// the flow-control window to become positive" (RFC 9113 §6.9.2; §6.9.3 lets a receiver shrink
// its windows this way).
//
// The client starts GET /1m.bin with a 256 KiB stream window and lowers it to 16 KiB on the first
// DATA frame. Frames before the SETTINGS ACK may still use the old window; every frame after it
// must fit 16 KiB plus what the client granted. The client grants only once the window is used up
// and a PING round trip shows the server has stopped, so a server still sending on the old window
// is caught before any new credit could excuse it.
func sec6_9_3WindowReductionInFlight(ctx context.Context, cl *client) outcome {
	const initial, reduced = 256 << 10, 16 << 10
	conn := connBudget{granted: 16 << 20}
	c, err := cl.dial(ctx, dialOpts{
		settings:   []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: initial}},
		connWindow: uint32(conn.granted),
	})
	if err != nil {
		return fail("connect: %v", err)
	}
	id, err := c.open("GET", "/1m.bin", true)
	if err != nil {
		return fail("GET /1m.bin: %v", err)
	}
	s := c.peer.streams[id]
	var (
		granted     int64
		reduceIndex int   // the reducing SETTINGS is the client's reduceIndex-th
		atAck       int64 // window right after the ACK (negative when data was in flight)
		acked       bool
		quiet       *[8]byte // PING sent to see the server stop at window <= 0
		rounds      int
	)
	for !downloadEnded(c, id) {
		f, err := c.next(ctx)
		if err != nil {
			return fail("%s", downloadError(c, id, err))
		}
		if f.typ == http2.FrameData && f.stream == id {
			limit, which := int64(initial)+granted, "SETTINGS_INITIAL_WINDOW_SIZE=262144"
			if reduceIndex > 0 {
				which += ", the reduction to 16384 not yet ACKed"
			}
			if acked {
				limit, which = reduced+granted, "SETTINGS_INITIAL_WINDOW_SIZE=16384, ACKed before this frame"
			}
			if s.recvd > limit {
				return fail("DATA s=%d len=%d took the stream to %d bytes, %d beyond its window (%s, + %d granted in %d WINDOW_UPDATEs)",
					id, f.length, s.recvd, s.recvd-limit, which, granted, rounds)
			}
			if why := conn.overrun(c, &f); why != "" {
				return fail("%s", why)
			}
			if reduceIndex == 0 {
				c.writeSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: reduced})
				reduceIndex = c.settingsSent
			}
		}
		if reduceIndex > 0 && !acked && c.peer.acks >= reduceIndex {
			acked, atAck = true, reduced+granted-s.recvd
		}
		avail := reduced + granted - s.recvd
		switch {
		case !acked || s.ended || avail > 0:
		case quiet == nil:
			p, err := c.ping()
			if err != nil {
				return fail("PING: %v", err)
			}
			quiet = &p
		case c.peer.pingAck == *quiet:
			// The server stopped at window <= 0: open it to the reduced size again.
			c.writeWindowUpdate(id, uint32(reduced-avail))
			granted += reduced - avail
			quiet = nil
			rounds++
		}
		if err := conn.topUp(c, 8<<20, 8<<20); err != nil {
			return fail("WINDOW_UPDATE: %v", err)
		}
	}
	if why := checkComplete(c, id); why != "" {
		return fail("%s", why)
	}
	if !acked {
		return skip(SkipNoSettingsAck, "the download ended (%d of %d bytes, %s) before the server ACKed SETTINGS_INITIAL_WINDOW_SIZE=16384: nothing to judge",
			s.bodyLen, oneMiB, c.peer.streamEnd(id))
	}
	return pass("1 MiB arrived; the stream window went from 256 KiB to 16 KiB mid-transfer (%d right after the ACK), and no DATA exceeded it over %d grant rounds",
		atAck, rounds)
}
