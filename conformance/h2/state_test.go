package h2

import (
	"testing"

	"golang.org/x/net/http2"
)

// A GOAWAY with an error names a stream's end over the RST_STREAM NO_ERROR that may follow it
// (haproxy); any other RST_STREAM still names it.
func TestStreamEndPrefersConnectionError(t *testing.T) {
	for _, tc := range []struct {
		reset, goaway http2.ErrCode
		want          string
	}{
		{http2.ErrCodeNo, http2.ErrCodeProtocol, "GOAWAY PROTOCOL_ERROR"},
		{http2.ErrCodeFlowControl, http2.ErrCodeProtocol, "RST_STREAM FLOW_CONTROL_ERROR"},
		{http2.ErrCodeNo, http2.ErrCodeNo, "RST_STREAM NO_ERROR"},
	} {
		p := newPeerState()
		p.openStream(1)
		code := tc.reset
		p.streams[1].reset = &code
		p.goaway = &frame{typ: http2.FrameGoAway, code: tc.goaway}
		if got := p.streamEnd(1); got != tc.want {
			t.Errorf("RST_STREAM %s after GOAWAY %s: %q, want %q", tc.reset, tc.goaway, got, tc.want)
		}
	}
}
