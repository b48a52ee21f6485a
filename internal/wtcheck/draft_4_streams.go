package wtcheck

import (
	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/quicvarint"
)

var sessionStreams = register(Check{
	Name:        "session-streams",
	Requirement: "draft-ietf-webtrans-http3 §4.2, §4.3; RFC 9114 §6.1, §6.2",
	Description: "every WebTransport stream starts with its type (uni 0x54) or signal (bidi 0x41) and the id of an accepted session; no stream of an unknown type, no other server-opened bidi stream",
	Run:         checkSessionStreams,
})

// checkSessionStreams: a WebTransport uni stream is stream type 0x54 followed by the session id
// (§4.2), a bidi stream opens with the signal 0x41 and the session id (§4.3), and the session id
// is the stream id of an extended CONNECT the server accepted. A uni stream of an unknown type is
// one the receiver must ignore (RFC 9114 §6.2) — data sent on it never reaches the session — and
// a server-opened bidi stream that is not WebTransport is an error (RFC 9114 §6.1).
func checkSessionStreams(e *Evidence) Result {
	name := "session-streams"
	ok := acceptedSessions(e.Trace)
	uni, bidi := 0, 0
	for _, s := range e.Trace.H3Streams {
		opener := s.ClientStarted == (s.Dir == quictrace.ClientToServer)
		if !opener || len(s.Raw) == 0 {
			continue
		}
		switch {
		case s.Uni && s.UniType == nil:
			continue
		case s.Uni && *s.UniType == quictrace.H3StreamPush && s.Dir == quictrace.ClientToServer:
			return fail(name, "the client opened push stream %d; only servers open push streams (RFC 9114 §6.2.2)", s.ID)
		case s.Uni && knownUniType(*s.UniType):
			continue
		case s.Uni && *s.UniType != quictrace.H3StreamWebTransport:
			return fail(name, "%s uni stream %d has type 0x%x: neither HTTP/3's nor WebTransport's 0x54, so the receiver ignores it (RFC 9114 §6.2)", s.Dir, s.ID, *s.UniType)
		case !s.Uni && s.WTSession == nil && s.ClientStarted && firstIsHeaders(s):
			continue // a request (the CONNECT itself)
		case !s.Uni && s.WTSession == nil:
			return fail(name, "%s bidi stream %d starts with 0x%x: neither HEADERS nor the WebTransport signal 0x41", s.Dir, s.ID, firstVarint(s.Raw))
		}
		if s.WTSession == nil {
			return fail(name, "%s WebTransport stream %d ends before its session id", s.Dir, s.ID)
		}
		if _, found := ok[[2]uint64{uint64(s.Conn), *s.WTSession}]; !found {
			return fail(name, "%s WebTransport stream %d names session %d, which is no accepted extended CONNECT's stream", s.Dir, s.ID, *s.WTSession)
		}
		if s.Uni {
			uni++
		} else {
			bidi++
		}
	}
	return pass(name, "%d uni and %d bidi WebTransport streams, each bound to an accepted session", uni, bidi)
}

// knownUniType: HTTP/3's own stream types (RFC 9114 §6.2.1-6.2.2, RFC 9204 §4.2) and the
// reserved ones that exercise the rule to ignore unknown types (RFC 9114 §6.2.3).
func knownUniType(t uint64) bool {
	switch t {
	case quictrace.H3StreamControl, quictrace.H3StreamPush, quictrace.H3StreamQPACKEncoder, quictrace.H3StreamQPACKDecoder:
		return true
	}
	return t >= 0x21 && (t-0x21)%0x1f == 0
}

// firstVarint is the value a stream starts with (its type, signal or frame type).
func firstVarint(b []byte) uint64 {
	v, _ := quicvarint.Read(b)
	return v
}
