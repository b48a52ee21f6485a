package quiccheck

import (
	"fmt"

	"github.com/wirelab/wirelab/internal/quictrace"
)

var http3 = Check{
	Name:        "http3",
	Requirement: "RFC 9114 §6.2.1, §4.1, RFC 9204 §4.2",
	Reads:       WholeTrace,
	Description: "a SETTINGS-first control stream each way, at most one QPACK stream of each kind per side, every request answered, HEADERS first",
	Run:         checkHTTP3,
}

// checkHTTP3 (beyond upstream, which does not dissect HTTP/3): RFC 9114 §6.2.1, both sides open a
// control stream whose first frame is SETTINGS; RFC 9114 §4.1, every request stream with HTTP/3
// frames (client request and server response) starts with HEADERS, with no DATA before it, and
// every request is answered on its stream with a response that starts with HEADERS.
// QPACK encoder/decoder streams are NOT required (RFC 9204 §4.2: an endpoint that uses no dynamic
// table need not open them); when opened, at most one of each per endpoint.
func checkHTTP3(t *quictrace.Trace) Result {
	const name = "http3"
	ctrl := map[quictrace.Direction]bool{}
	qpack := map[uint64]int{}        // by stream type, all connections and sides
	perSide := map[[3]uint64]int64{} // (connection, direction, type) -> first stream id
	requests, responses := 0, 0
	badRequest := ""
	for _, s := range t.H3Streams {
		if s.Uni {
			if s.UniType == nil {
				continue
			}
			switch *s.UniType {
			case quictrace.H3StreamControl:
				if len(s.FrameTypes) == 0 || s.FrameTypes[0] != quictrace.H3FrameSettings {
					return fail(name, "%s control stream %d does not start with SETTINGS (frames %v)", s.Dir, s.ID, hexes(s.FrameTypes))
				}
				ctrl[s.Dir] = true
			case quictrace.H3StreamQPACKEncoder, quictrace.H3StreamQPACKDecoder:
				// RFC 9204 §4.2: at most one of each per endpoint; a second one is a connection
				// error. None at all is allowed (an endpoint that uses no dynamic table).
				key := [3]uint64{uint64(s.Conn), uint64(s.Dir), *s.UniType}
				if first, dup := perSide[key]; dup {
					return fail(name, "%s opened a second QPACK %s stream (%d after %d), RFC 9204 §4.2 allows one", s.Dir, qpackKind(*s.UniType), s.ID, first)
				}
				perSide[key] = s.ID
				qpack[*s.UniType]++
			}
			continue
		}
		if !s.ClientStarted || len(s.FrameTypes) == 0 {
			continue
		}
		if s.FrameTypes[0] != quictrace.H3FrameHeaders {
			if badRequest == "" {
				badRequest = fmt.Sprintf("%s bidi stream %d (connection %d) starts with frame 0x%x, want HEADERS", s.Dir, s.ID, s.Conn, s.FrameTypes[0])
			}
			continue
		}
		if s.Dir == quictrace.ClientToServer {
			requests++
		} else {
			responses++
		}
	}
	if r, ok := everyRequestAnswered(name, t); !ok {
		return r
	}
	switch {
	case !ctrl[quictrace.ClientToServer] || !ctrl[quictrace.ServerToClient]:
		return fail(name, "control streams with SETTINGS: client %v, server %v; want both", ctrl[quictrace.ClientToServer], ctrl[quictrace.ServerToClient])
	case badRequest != "":
		return fail(name, "%s", badRequest)
	case requests == 0 || responses == 0:
		return fail(name, "%d request streams and %d responses with HEADERS first; want both > 0", requests, responses)
	}
	return pass(name, "control streams with SETTINGS both ways, %d QPACK encoder/%d decoder streams, %d requests and %d responses HEADERS-first",
		qpack[quictrace.H3StreamQPACKEncoder], qpack[quictrace.H3StreamQPACKDecoder], requests, responses)
}

func qpackKind(t uint64) string {
	if t == quictrace.H3StreamQPACKEncoder {
		return "encoder"
	}
	return "decoder"
}

func hexes(v []uint64) string {
	s := "["
	for i, x := range v {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("0x%x", x)
	}
	return s + "]"
}

// everyRequestAnswered: RFC 9114 §4.1, each client request stream (HEADERS first) gets a server
// response on the same stream that starts with HEADERS. Counting requests and responses
// separately would let one answered request hide unanswered ones.
func everyRequestAnswered(name string, t *quictrace.Trace) (Result, bool) {
	type key struct {
		conn int
		id   int64
	}
	answered := map[key]bool{}
	for _, s := range t.H3Streams {
		if !s.Uni && s.ClientStarted && s.Dir == quictrace.ServerToClient && len(s.FrameTypes) > 0 && s.FrameTypes[0] == quictrace.H3FrameHeaders {
			answered[key{s.Conn, s.ID}] = true
		}
	}
	for _, s := range t.H3Streams {
		if !s.Uni && s.ClientStarted && s.Dir == quictrace.ClientToServer && len(s.FrameTypes) > 0 && s.FrameTypes[0] == quictrace.H3FrameHeaders && !answered[key{s.Conn, s.ID}] {
			return fail(name, "request on stream %d (connection %d) has no response starting with HEADERS", s.ID, s.Conn), false
		}
	}
	return Result{}, true
}
