package h2

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/net/http2"
)

// sec6_1PaddingFlowControl: "The entire DATA frame payload is included in flow control,
// including the Pad Length and Padding fields if present" (RFC 9113 §6.1).
//
// Each frame carries 1 data byte, the Pad Length octet and 255 padding octets, and every burst
// fills the windows exactly. A server that miscounts padding answers FLOW_CONTROL_ERROR; one that
// credits only the data bytes gives back 1/257 of what was used, so the upload stalls once twice
// the larger window has been sent.
func sec6_1PaddingFlowControl(ctx context.Context, cl *client) outcome {
	c, err := cl.dial(ctx, dialOpts{})
	if err != nil {
		return fail("connect: %v", err)
	}
	payload := 2*c.peer.initial + 64<<10
	note := ""
	if connW := c.peer.sendConn; connW <= 8<<20 {
		payload = max(payload, 2*connW+64<<10)
	} else {
		note = fmt.Sprintf("; connection window %d too large to exhaust, stream credit checked", connW)
	}
	data := (payload + 256) / 257

	id, err := c.open("POST", "/upload", false)
	if err != nil {
		return fail("POST /upload: %v", err)
	}
	err = c.sendBody(ctx, id, data, bodyOpts{chunk: 1, pad: 255, end: true})
	if err == nil {
		err = c.waitDone(ctx, id)
	}
	s := c.peer.streams[id]
	credits := fmt.Sprintf("server credited %d on the stream and %d on the connection", s.credit, c.peer.connCredit)
	// The windows left as the server's SETTINGS and WINDOW_UPDATEs set them, less what was sent.
	left := fmt.Sprintf("stream window %d and connection window %d left", s.sendWin, c.peer.sendConn)
	switch {
	case s.reset != nil && *s.reset == http2.ErrCodeFlowControl || c.peer.goaway != nil && c.peer.goaway.code == http2.ErrCodeFlowControl:
		return fail("%s on padded DATA that fit the windows (%d flow-controlled bytes sent, %s)", c.peer.streamEnd(id), s.sent, left)
	case s.reset != nil || c.peer.closed():
		// Every frame's Pad Length is below its payload length (§6.1's limit): all are legal.
		return fail("%s on legal padded DATA (Pad Length < frame payload in every frame) after %d flow-controlled bytes sent; %s",
			c.peer.streamEnd(id), s.sent, credits)
	case errors.Is(err, context.DeadlineExceeded):
		return fail("stalled after %d of ~%d flow-controlled bytes in 257-byte padded frames (%d of them data), %s; %s",
			s.sent, payload, s.sent/257, left, credits)
	case err != nil:
		return fail("%v", err)
	}
	answer, err := c.checkUpload(id, data)
	if err != nil {
		return fail("%v (padding is not content)", err)
	}
	return pass("%d padded DATA frames (%d flow-controlled bytes, %d data) accepted and answered with %s; %s%s",
		data, s.sent, data, answer, credits, note)
}
