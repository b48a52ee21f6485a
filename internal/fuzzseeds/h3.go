package fuzzseeds

import "github.com/wirelab/wirelab/internal/quicvarint"

// HTTP/3 stream types (RFC 9114 §6.2, RFC 9204 §4.2) and frame types (RFC 9114 §7.2).
const (
	UniControl      = 0x00
	UniPush         = 0x01
	UniQPACKEncoder = 0x02
	UniQPACKDecoder = 0x03

	FrameData     = 0x00
	FrameHeaders  = 0x01
	FrameSettings = 0x04

	SettingQPACKMaxTableCapacity = 0x01
	SettingQPACKBlockedStreams   = 0x07
)

// StreamKind is what an HTTP/3 stream turned out to be.
type StreamKind int

const (
	KindPending StreamKind = iota // unidirectional, type not yet seen
	KindRequest                   // client-initiated bidirectional: HTTP/3 frames
	KindControl                   // control stream: HTTP/3 frames (SETTINGS)
	KindEncoder                   // QPACK encoder stream: instructions
	KindDecoder                   // QPACK decoder stream (not decoder input; ignored)
	KindIgnored                   // push, reserved/unknown types, server-initiated bidirectional
)

// Event is what an H3Stream found in newly contiguous bytes.
type Event struct {
	Encoder  []byte            // QPACK encoder-stream bytes (KindEncoder)
	Section  []byte            // one HEADERS frame's field section (KindRequest)
	Settings map[uint64]uint64 // one SETTINGS frame (KindControl)
}

// H3Stream parses one direction of one HTTP/3 stream incrementally: Feed takes the bytes that
// became contiguous and returns the events they completed. A frame still incomplete when the
// stream ends (a gap, or the capture stopped) yields nothing (Partial reports it).
type H3Stream struct {
	ID      uint64
	Kind    StreamKind
	UniType uint64

	buf     []byte // unparsed bytes: a varint or frame header cut short
	inFrame bool
	ftype   uint64
	left    uint64 // payload bytes of the current frame still to come
	collect bool   // keep the payload (HEADERS on a request stream, SETTINGS on the control stream)
	payload []byte
	Bad     string // why parsing stopped (a malformed SETTINGS), "" if it did not
}

// NewH3Stream starts the parser for stream id (RFC 9000 §2.1: bit 1 = unidirectional, bit 0 =
// server-initiated).
func NewH3Stream(id uint64) *H3Stream {
	s := &H3Stream{ID: id}
	switch {
	case id&2 != 0:
		s.Kind = KindPending
	case id&1 == 0:
		s.Kind = KindRequest
	default:
		s.Kind = KindIgnored
	}
	return s
}

// Partial reports whether the stream ended inside a stream type or frame.
func (s *H3Stream) Partial() bool {
	return len(s.buf) > 0 || s.inFrame
}

// Feed parses newly contiguous bytes.
func (s *H3Stream) Feed(b []byte) []Event {
	var evs []Event
	if s.Kind == KindPending {
		s.buf = append(s.buf, b...)
		t, n := quicvarint.Read(s.buf)
		if n == 0 {
			return nil
		}
		s.UniType = t
		b, s.buf = s.buf[n:], nil
		switch t {
		case UniControl:
			s.Kind = KindControl
		case UniQPACKEncoder:
			s.Kind = KindEncoder
		case UniQPACKDecoder:
			s.Kind = KindDecoder
		default:
			s.Kind = KindIgnored
		}
	}
	switch s.Kind {
	case KindEncoder:
		if len(b) > 0 {
			evs = append(evs, Event{Encoder: append([]byte(nil), b...)})
		}
		return evs
	case KindRequest, KindControl:
	default:
		return nil
	}
	s.buf = append(s.buf, b...)
	for s.Bad == "" {
		if !s.inFrame {
			t, n := quicvarint.Read(s.buf)
			if n == 0 {
				break
			}
			l, m := quicvarint.Read(s.buf[n:])
			if m == 0 {
				break
			}
			s.buf = s.buf[n+m:]
			s.inFrame, s.ftype, s.left = true, t, l
			s.collect = (s.Kind == KindRequest && t == FrameHeaders) || (s.Kind == KindControl && t == FrameSettings)
			s.payload = nil
		}
		k := s.left
		if uint64(len(s.buf)) < k {
			k = uint64(len(s.buf))
		}
		if s.collect {
			s.payload = append(s.payload, s.buf[:k]...)
		}
		s.buf = s.buf[k:]
		s.left -= k
		if s.left > 0 {
			break
		}
		s.inFrame = false
		if !s.collect {
			continue
		}
		s.collect = false
		if s.Kind == KindRequest {
			evs = append(evs, Event{Section: s.payload})
			continue
		}
		set, err := ParseSettings(s.payload)
		if err != "" {
			s.Bad = err
			break
		}
		evs = append(evs, Event{Settings: set})
	}
	if len(s.buf) == 0 {
		s.buf = nil
	}
	return evs
}

// ParseSettings reads a SETTINGS payload: identifier/value varint pairs (RFC 9114 §7.2.4).
func ParseSettings(b []byte) (map[uint64]uint64, string) {
	set := map[uint64]uint64{}
	for len(b) > 0 {
		id, n := quicvarint.Read(b)
		if n == 0 {
			return nil, "SETTINGS: truncated identifier"
		}
		v, m := quicvarint.Read(b[n:])
		if m == 0 {
			return nil, "SETTINGS: truncated value"
		}
		set[id] = v
		b = b[n+m:]
	}
	return set, ""
}
