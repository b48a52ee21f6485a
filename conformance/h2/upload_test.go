package h2

import (
	"strings"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// checkUpload accepts the count or an echo of the right length, and nothing else.
func TestCheckUpload(t *testing.T) {
	zeros := func(n int) string { return strings.Repeat("\x00", n) }
	for _, tc := range []struct {
		status, body string
		want         int64
		ok           string // part of the answer, or "" for an error
	}{
		{"200", "766", 766, "count 766"},
		{"200", "766\n", 766, "count 766"},
		{"200", zeros(766), 766, "766 bytes echoed"},
		{"200", "765", 766, ""},
		{"200", zeros(765), 766, ""},
		{"200", "x" + zeros(765), 766, ""},
		{"200", "", 766, ""},
		{"413", "766", 766, ""},
	} {
		c := &conn{peer: newPeerState()}
		c.peer.openStream(1)
		s := c.peer.streams[1]
		s.headers = &frame{typ: http2.FrameHeaders, fields: []hpack.HeaderField{{Name: ":status", Value: tc.status}}}
		s.ended, s.bodyLen = true, int64(len(tc.body))
		s.body = []byte(tc.body[:min(len(tc.body), bodyKeep)])
		got, err := c.checkUpload(1, tc.want)
		if tc.ok == "" && err == nil || tc.ok != "" && (err != nil || !strings.Contains(got, tc.ok)) {
			t.Errorf("status %s, %d-byte body %q: got %q, %v; want %q", tc.status, len(tc.body), truncate(tc.body, 8), got, err, tc.ok)
		}
	}
}
