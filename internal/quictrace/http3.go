package quictrace

import "fmt"

// CheckHTTP3 (beyond upstream): both sides open a control stream whose first frame is SETTINGS,
// QPACK encoder and decoder streams appear, and every request stream with HTTP/3 frames (client
// request and server response) starts with HEADERS, with no DATA before it.
func CheckHTTP3(t *Trace) Result {
	const name = "http3"
	ctrl := map[Direction]bool{}
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
			case H3StreamControl:
				if len(s.FrameTypes) == 0 || s.FrameTypes[0] != H3FrameSettings {
					return fail(name, "%s control stream %d does not start with SETTINGS (frames %v)", s.Dir, s.ID, hexes(s.FrameTypes))
				}
				ctrl[s.Dir] = true
			case H3StreamQPACKEncoder, H3StreamQPACKDecoder:
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
		if s.FrameTypes[0] != H3FrameHeaders {
			if badRequest == "" {
				badRequest = fmt.Sprintf("%s bidi stream %d (connection %d) starts with frame 0x%x, want HEADERS", s.Dir, s.ID, s.Conn, s.FrameTypes[0])
			}
			continue
		}
		if s.Dir == ClientToServer {
			requests++
		} else {
			responses++
		}
	}
	switch {
	case !ctrl[ClientToServer] || !ctrl[ServerToClient]:
		return fail(name, "control streams with SETTINGS: client %v, server %v; want both", ctrl[ClientToServer], ctrl[ServerToClient])
	case badRequest != "":
		return fail(name, "%s", badRequest)
	case requests == 0 || responses == 0:
		return fail(name, "%d request streams and %d responses with HEADERS first; want both > 0", requests, responses)
	}
	return pass(name, "control streams with SETTINGS both ways, %d QPACK encoder/%d decoder streams, %d requests and %d responses HEADERS-first",
		qpack[H3StreamQPACKEncoder], qpack[H3StreamQPACKDecoder], requests, responses)
}

func qpackKind(t uint64) string {
	if t == H3StreamQPACKEncoder {
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
