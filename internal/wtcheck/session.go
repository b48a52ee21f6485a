package wtcheck

import (
	"strings"

	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/quicvarint"
)

// HTTP/3 settings a WebTransport endpoint sends (RFC 9220 §5, RFC 9297 §5.1, and the
// WebTransport draft's registrations, which changed between drafts).
const (
	settingEnableConnectProtocol = 0x08
	settingH3Datagram            = 0x33
)

// wtSettings are the settings by which an endpoint says it speaks WebTransport; the code point
// changed with the drafts of draft-ietf-webtrans-http3 (docs/webtransport.md).
var wtSettings = []struct {
	id    uint64
	draft string
}{
	{0x2b603742, "draft-02 SETTINGS_ENABLE_WEBTRANSPORT"},
	{0xc671706a, "draft-07 SETTINGS_WEBTRANSPORT_MAX_SESSIONS"},
	{0x14e9cd29, "draft-13/14 SETTINGS_WT_MAX_SESSIONS"},
	{0x2c7cf000, "draft-15 SETTINGS_WT_ENABLED"},
}

// settings are one side's SETTINGS (the first SETTINGS frame of its control stream), nil when it
// sent none.
func settings(t *quictrace.Trace, dir quictrace.Direction) map[uint64]uint64 {
	for _, s := range t.H3Streams {
		if s.Dir != dir || !s.Uni || s.UniType == nil || *s.UniType != quictrace.H3StreamControl {
			continue
		}
		for _, f := range s.Frames {
			if f.Type == quictrace.H3FrameSettings {
				return parseSettings(f.Payload)
			}
		}
	}
	return nil
}

func parseSettings(b []byte) map[uint64]uint64 {
	out := map[uint64]uint64{}
	for len(b) > 0 {
		id, n := quicvarint.Read(b)
		if n == 0 {
			break
		}
		v, m := quicvarint.Read(b[n:])
		if m == 0 {
			break
		}
		out[id] = v
		b = b[n+m:]
	}
	return out
}

// session is one WebTransport session: the extended CONNECT on a client bidi stream and the
// server's answer.
type session struct {
	Conn      int
	ID        uint64
	Request   []quictrace.HeaderField
	Response  []quictrace.HeaderField
	Requested bool // HEADERS decoded on the client's side of the stream
}

// Path is the session's :path without its leading slash.
func (s session) Path() string { return strings.TrimPrefix(quictrace.Header(s.Request, ":path"), "/") }

// Accepted: the server answered with a 2xx status (RFC 9220 §3, draft §3.2).
func (s session) Accepted() bool {
	st := quictrace.Header(s.Response, ":status")
	return len(st) == 3 && st[0] == '2'
}

// sessions are the extended CONNECT requests of the trace (HEADERS first on a client-initiated
// bidi stream with :method CONNECT and a :protocol), in stream order.
func sessions(t *quictrace.Trace) []session {
	type key struct {
		conn int
		id   int64
	}
	resp := map[key][]quictrace.HeaderField{}
	for _, s := range t.H3Streams {
		if !s.Uni && s.ClientStarted && s.Dir == quictrace.ServerToClient && len(s.Frames) > 0 && s.Frames[0].Type == quictrace.H3FrameHeaders && firstIsHeaders(s) {
			resp[key{s.Conn, s.ID}] = s.Frames[0].Fields
		}
	}
	var out []session
	for _, s := range t.H3Streams {
		if s.Uni || !s.ClientStarted || s.Dir != quictrace.ClientToServer || !firstIsHeaders(s) {
			continue
		}
		req := s.Frames[0].Fields
		if quictrace.Header(req, ":method") != "CONNECT" || quictrace.Header(req, ":protocol") == "" {
			continue
		}
		out = append(out, session{Conn: s.Conn, ID: uint64(s.ID), Request: req, Response: resp[key{s.Conn, s.ID}], Requested: true})
	}
	return out
}

// firstIsHeaders: the stream's first HTTP/3 frame is HEADERS (RFC 9114 §4.1) and its bytes were
// reassembled.
func firstIsHeaders(s quictrace.H3Stream) bool {
	return len(s.FrameTypes) > 0 && s.FrameTypes[0] == quictrace.H3FrameHeaders && len(s.Frames) > 0 && s.Frames[0].Type == quictrace.H3FrameHeaders
}

// acceptedSessions maps (connection, session id) of every accepted session.
func acceptedSessions(t *quictrace.Trace) map[[2]uint64]session {
	out := map[[2]uint64]session{}
	for _, s := range sessions(t) {
		if s.Accepted() {
			out[[2]uint64{uint64(s.Conn), s.ID}] = s
		}
	}
	return out
}

// sender is the direction a role's bytes travel.
func sender(role string) quictrace.Direction {
	if role == "server" {
		return quictrace.ServerToClient
	}
	return quictrace.ClientToServer
}

func other(role string) string {
	if role == "server" {
		return "client"
	}
	return "server"
}
