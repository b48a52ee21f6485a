package quictrace

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/quicvarint"
)

// varints concatenates QUIC varints.
func varints(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = quicvarint.Append(b, v)
	}
	return b
}

// draft-ietf-webtrans-http3 §4.2: a WebTransport uni stream is the stream type 0x54 (a two-byte
// varint, 0x40 0x54), the session id, then the application's bytes.
func TestParseH3StreamWebTransportUni(t *testing.T) {
	for _, session := range []uint64{0, 4, 400, 1 << 20} {
		b := append(varints(H3StreamWebTransport, session), "PUSH a.txt\nhello"...)
		s := parseH3Stream(15, b)
		if !s.Uni || s.ClientStarted || s.UniType == nil || *s.UniType != H3StreamWebTransport {
			t.Fatalf("session %d: stream %+v", session, s)
		}
		if s.WTSession == nil || *s.WTSession != session || string(s.WTPayload) != "PUSH a.txt\nhello" {
			t.Errorf("session %d: WTSession %v, WTPayload %q", session, s.WTSession, s.WTPayload)
		}
		if s.Truncated || s.FrameTypes != nil || s.Frames != nil || s.Bytes != uint64(len(b)) {
			t.Errorf("session %d: a WebTransport stream has no HTTP/3 frames: %+v", session, s)
		}
	}
	// The payload is not parsed as HTTP/3 frames, whatever it looks like.
	s := parseH3Stream(2, append(varints(H3StreamWebTransport, 0), varints(H3FrameSettings, 2, 0x08, 1)...))
	if s.WTSession == nil || *s.WTSession != 0 || len(s.WTPayload) != 4 || s.Frames != nil || !s.ClientStarted {
		t.Errorf("client uni stream with a SETTINGS-like payload: %+v", s)
	}
	// The single byte 0x54 is a two-byte varint (0x1400 | next byte), not the WebTransport type.
	s = parseH3Stream(3, []byte{0x54, 0x00, 'x'})
	if s.UniType == nil || *s.UniType != 0x1400 || s.WTSession != nil {
		t.Errorf("0x54 0x00: UniType %v, WTSession %v", s.UniType, s.WTSession)
	}
}

// draft §4.3: a WebTransport bidi stream opens with the signal 0x41 (0x40 0x41) and the session
// id; the signal is recorded as the stream's first "frame type".
func TestParseH3StreamWebTransportBidi(t *testing.T) {
	for _, id := range []int64{4, 1} { // client- and server-opened
		s := parseH3Stream(id, append(varints(H3WebTransportSignal, 0), "GET a.txt"...))
		if s.Uni || s.ClientStarted != (id&1 == 0) || s.UniType != nil {
			t.Fatalf("stream %d: %+v", id, s)
		}
		if s.WTSession == nil || *s.WTSession != 0 || string(s.WTPayload) != "GET a.txt" {
			t.Errorf("stream %d: WTSession %v, WTPayload %q", id, s.WTSession, s.WTPayload)
		}
		if !reflect.DeepEqual(s.FrameTypes, []uint64{H3WebTransportSignal}) || s.Frames != nil || s.Truncated {
			t.Errorf("stream %d: FrameTypes %v, Frames %v, Truncated %v", id, s.FrameTypes, s.Frames, s.Truncated)
		}
	}
	// A request stream is still HTTP/3 frames: HEADERS then DATA.
	s := parseH3Stream(0, append(varints(H3FrameHeaders, 3), 0x00, 0x00, 0xd1))
	if s.WTSession != nil || !reflect.DeepEqual(s.FrameTypes, []uint64{H3FrameHeaders}) || len(s.Frames) != 1 || !bytes.Equal(s.Frames[0].Payload, []byte{0x00, 0x00, 0xd1}) {
		t.Errorf("request stream: %+v", s)
	}
	// A bidi stream starting with the single byte 0x41 starts with the varint 0x0100, no signal.
	s = parseH3Stream(4, []byte{0x41, 0x00, 0x00})
	if s.WTSession != nil || len(s.FrameTypes) == 0 || s.FrameTypes[0] != 0x100 {
		t.Errorf("0x41 0x00 0x00: WTSession %v, FrameTypes %v", s.WTSession, s.FrameTypes)
	}
}

// A WebTransport stream whose bytes end before or inside the session id has no session: empty
// after the type or signal is not truncated, half a varint is.
func TestParseH3StreamWebTransportTruncated(t *testing.T) {
	for _, tc := range []struct {
		name      string
		id        int64
		b         []byte
		truncated bool
	}{
		{"uni, type only", 3, varints(H3StreamWebTransport), false},
		{"uni, half a session id", 3, append(varints(H3StreamWebTransport), 0x40), true},
		{"uni, 3 of a 4-byte session id", 2, append(varints(H3StreamWebTransport), 0x80, 0x01, 0x02), true},
		{"bidi, signal only", 4, varints(H3WebTransportSignal), false},
		{"bidi, half a session id", 1, append(varints(H3WebTransportSignal), 0xc0, 0, 0, 0), true},
	} {
		s := parseH3Stream(tc.id, tc.b)
		if s.WTSession != nil || s.WTPayload != nil || s.Truncated != tc.truncated {
			t.Errorf("%s: WTSession %v, WTPayload %q, Truncated %v (want %v)", tc.name, s.WTSession, s.WTPayload, s.Truncated, tc.truncated)
		}
	}
	// Half a varint of a uni stream's type: no type at all.
	if s := parseH3Stream(3, []byte{0x40}); s.UniType != nil || !s.Truncated {
		t.Errorf("half a type: %+v", s)
	}
}

// stream is a STREAM frame of id at off (FIN when fin).
func stream(id int64, off uint64, data string, fin bool) Frame {
	typ := uint64(FrameStreamMin | 0x06)
	if fin {
		typ |= 1
	}
	return Frame{Type: typ, StreamID: id, Offset: off, Length: uint64(len(data)), Fin: fin, Data: []byte(data)}
}

// oneRTT is a datagram of one 1-RTT packet holding frames.
func oneRTT(n int, dir Direction, conn int, frames ...Frame) Datagram {
	return Datagram{Frame: n, Dir: dir, Conn: conn, Packets: []Packet{{Frame: n, Dir: dir, Conn: conn, Type: Type1RTT, Decrypted: true, Frames: frames}}}
}

// reassembleH3 puts a stream's bytes together from offset 0: FIN counts only when every byte
// before it arrived (RFC 9000 §2.2, §3.1), in whatever order the frames came.
func TestReassembleFin(t *testing.T) {
	wt := string(varints(H3StreamWebTransport, 0))
	for _, tc := range []struct {
		name   string
		frames []Frame
		raw    string
		fin    bool
	}{
		{"in order", []Frame{stream(3, 0, wt+"PUSH", false), stream(3, 7, " a\nxy", true)}, wt + "PUSH a\nxy", true},
		{"FIN first", []Frame{stream(3, 7, " a\nxy", true), stream(3, 0, wt+"PUSH", false)}, wt + "PUSH a\nxy", true},
		{"a gap before FIN", []Frame{stream(3, 0, wt+"PU", false), stream(3, 7, " a\nxy", true)}, wt + "PU", false},
		{"the gap filled later", []Frame{stream(3, 0, wt+"PU", false), stream(3, 7, " a\nxy", true), stream(3, 5, "SH", false)}, wt + "PUSH a\nxy", true},
		{"FIN alone, after the bytes", []Frame{stream(3, 0, wt+"PUSH", false), stream(3, 7, "", true)}, wt + "PUSH", true},
		{"FIN alone, beyond a gap", []Frame{stream(3, 0, wt+"PU", false), stream(3, 7, "", true)}, wt + "PU", false},
		{"retransmitted, overlapping", []Frame{stream(3, 0, wt+"PUS", false), stream(3, 3, "PUSH a", false), stream(3, 7, " a\nxy", true)}, wt + "PUSH a\nxy", true},
		{"no FIN", []Frame{stream(3, 0, wt+"PUSH a\nxy", false)}, wt + "PUSH a\nxy", false},
	} {
		tr := &Trace{}
		for i, f := range tc.frames {
			tr.Datagrams = append(tr.Datagrams, oneRTT(i+1, ServerToClient, 0, f))
		}
		ss := reassembleH3(tr)
		if len(ss) != 1 {
			t.Fatalf("%s: %d streams", tc.name, len(ss))
		}
		s := ss[0]
		if string(s.Raw) != tc.raw || s.Fin != tc.fin || s.Bytes != uint64(len(tc.raw)) {
			t.Errorf("%s: Raw %q Fin %v Bytes %d, want %q %v", tc.name, s.Raw, s.Fin, s.Bytes, tc.raw, tc.fin)
		}
		if s.ID != 3 || s.Dir != ServerToClient || s.Conn != 0 || !s.Uni || s.WTSession == nil || *s.WTSession != 0 {
			t.Errorf("%s: %+v", tc.name, s)
		}
		if tc.name == "a gap before FIN" && (s.SeenEnd != 12 || s.FinAt != 12) {
			t.Errorf("%s: SeenEnd %d FinAt %d, want 12 12 (what the trace holds past the gap)", tc.name, s.SeenEnd, s.FinAt)
		}
		if want := strings.TrimPrefix(tc.raw, wt); string(s.WTPayload) != want {
			t.Errorf("%s: WTPayload %q, want %q", tc.name, s.WTPayload, want)
		}
	}
}

// reassembleH3 keeps each (connection, stream, direction) apart: a bidi stream's two sides are
// two H3Streams, the answer's raw bytes on its own.
func TestReassembleBidiSides(t *testing.T) {
	tr := &Trace{Datagrams: []Datagram{
		oneRTT(1, ClientToServer, 0, stream(4, 0, string(varints(H3WebTransportSignal, 0))+"GET a.txt", true)),
		oneRTT(2, ServerToClient, 0, stream(4, 0, "file bytes", true)),
		oneRTT(3, ClientToServer, 1, stream(4, 0, string(varints(H3WebTransportSignal, 0))+"GET b.txt", false)),
	}}
	ss := reassembleH3(tr)
	if len(ss) != 3 {
		t.Fatalf("%d streams, want 3", len(ss))
	}
	req, answer, other := ss[0], ss[1], ss[2]
	if req.Dir != ClientToServer || req.WTSession == nil || string(req.WTPayload) != "GET a.txt" || !req.Fin {
		t.Errorf("request side: %+v", req)
	}
	if answer.Dir != ServerToClient || string(answer.Raw) != "file bytes" || !answer.Fin || answer.WTSession != nil {
		t.Errorf("answer side: %+v", answer)
	}
	if other.Conn != 1 || string(other.WTPayload) != "GET b.txt" || other.Fin {
		t.Errorf("the other connection's stream: %+v", other)
	}
}

// RFC 9221: DATAGRAM frames (0x30 without, 0x31 with a Length) are collected in capture order,
// with their datagram's connection, direction and frame number, beside the streams.
func TestReassembleDatagrams(t *testing.T) {
	dg := func(typ uint64, data string) Frame { return Frame{Type: typ, StreamID: -1, Data: []byte(data)} }
	tr := &Trace{Datagrams: []Datagram{
		oneRTT(1, ClientToServer, 0, dg(FrameDatagramLen, "\x00GET a"), Frame{Type: FramePing, StreamID: -1}),
		oneRTT(2, ServerToClient, 0, Frame{Type: FrameAck, StreamID: -1}, dg(FrameDatagram, "\x00PUSH a\nx"), stream(3, 0, "\x00", false)),
		oneRTT(3, ServerToClient, 2, dg(FrameDatagramLen, "\x01"), dg(FrameDatagramLen, "")),
	}}
	// Two packets coalesced in one datagram.
	tr.Datagrams[2].Packets = append(tr.Datagrams[2].Packets, Packet{Frame: 3, Dir: ServerToClient, Conn: 2, Type: Type1RTT, Frames: []Frame{dg(FrameDatagram, "\x02z")}})
	ss := reassembleH3(tr)
	if len(ss) != 1 || ss[0].UniType == nil || *ss[0].UniType != H3StreamControl {
		t.Errorf("streams: %+v", ss)
	}
	want := []H3Datagram{
		{Conn: 0, Dir: ClientToServer, Frame: 1, Data: []byte("\x00GET a")},
		{Conn: 0, Dir: ServerToClient, Frame: 2, Data: []byte("\x00PUSH a\nx")},
		{Conn: 2, Dir: ServerToClient, Frame: 3, Data: []byte("\x01")},
		{Conn: 2, Dir: ServerToClient, Frame: 3, Data: []byte("")},
		{Conn: 2, Dir: ServerToClient, Frame: 3, Data: []byte("\x02z")},
	}
	if len(tr.H3Datagrams) != len(want) {
		t.Fatalf("%d datagrams, want %d: %+v", len(tr.H3Datagrams), len(want), tr.H3Datagrams)
	}
	for i, d := range tr.H3Datagrams {
		w := want[i]
		if d.Conn != w.Conn || d.Dir != w.Dir || d.Frame != w.Frame || !bytes.Equal(d.Data, w.Data) {
			t.Errorf("datagram %d: %+v, want %+v", i, d, w)
		}
	}
}

// parseFrame reads a DATAGRAM frame's payload from quic.dg, for both frame types.
func TestParseFrameDatagram(t *testing.T) {
	for _, typ := range []string{"48", "0x31"} {
		f := parseFrame(map[string]any{"quic.frame_type": typ, "quic.dg.length": "3", "quic.dg": "00:47:45"})
		if (f.Type != FrameDatagram && f.Type != FrameDatagramLen) || !bytes.Equal(f.Data, []byte{0x00, 0x47, 0x45}) || f.Length != 3 || f.StreamID != -1 {
			t.Errorf("type %s: %+v", typ, f)
		}
	}
}

// http3Layer is an http3 layer as tshark prints it (-T json --no-duplicate-keys): one packet's
// HEADERS frame with its payload and the field lines nghttp3 decoded, beside a SETTINGS frame.
const http3Layer = `[
  {"http3.stream_uni_type": "0x0000000000000000",
   "http3.frame": {"http3.frame_type": "0x0000000000000004", "http3.frame_length": "2", "http3.frame_payload": "08:01"}},
  {"http3.frame": {
     "http3.frame_type": "0x0000000000000001",
     "http3.frame_length": "3",
     "http3.frame_payload": "00:00:D1",
     "http3.headers.header": [
       {"http3.header.header.name": ":method", "http3.headers.header.value": "CONNECT"},
       {"http3.header.header.name": ":protocol", "http3.headers.header.value": "webtransport-h3"},
       {"http3.header.header.name": "wt-available-protocols", "http3.headers.header.value": "\"a\", \"b\""}
     ]}},
  {"http3.frame": {"http3.frame_type": "0x0000000000000001", "http3.frame_length": "3", "http3.frame_payload": "00:00:d9",
     "http3.headers.header": {"http3.header.header.name": ":status", "http3.headers.header.value": "200"}}},
  {"http3.frame": {"http3.frame_type": "0x0000000000000001", "http3.frame_payload": "00:00:99"}}
]`

// collectHeaderSections keys each decoded HEADERS frame by its payload bytes;
// attachHeaderSections gives the fields to the reassembled HEADERS frame with those bytes.
func TestHeaderSections(t *testing.T) {
	var layer any
	if err := json.Unmarshal([]byte(http3Layer), &layer); err != nil {
		t.Fatal(err)
	}
	sections := map[string][]HeaderField{}
	collectHeaderSections(layer, sections)
	connect := []HeaderField{{":method", "CONNECT"}, {":protocol", "webtransport-h3"}, {"wt-available-protocols", `"a", "b"`}}
	if len(sections) != 2 || !reflect.DeepEqual(sections["0000d1"], connect) || !reflect.DeepEqual(sections["0000d9"], []HeaderField{{":status", "200"}}) {
		t.Fatalf("sections %q", sections)
	}

	headers := func(payload ...byte) []byte { return append(varints(H3FrameHeaders, uint64(len(payload))), payload...) }
	streams := []H3Stream{
		parseH3Stream(0, headers(0x00, 0x00, 0xd1)),                                          // the CONNECT
		parseH3Stream(0, append(headers(0x00, 0x00, 0xd9), varints(H3FrameData, 1, 'x')...)), // its answer
		parseH3Stream(4, headers(0x00, 0x00, 0x99)),                                          // tshark decoded nothing
		parseH3Stream(2, append(varints(H3StreamControl, H3FrameSettings, 2), 0x08, 0x01)),   // no HEADERS
	}
	attachHeaderSections(streams, sections)
	if got := streams[0].Frames[0].Fields; !reflect.DeepEqual(got, connect) {
		t.Errorf("CONNECT fields %q", got)
	}
	if got := Header(streams[0].Frames[0].Fields, ":protocol"); got != "webtransport-h3" {
		t.Errorf(":protocol %q", got)
	}
	if got := Header(streams[1].Frames[0].Fields, ":status"); got != "200" || len(streams[1].Frames) != 1 {
		t.Errorf("response: %+v", streams[1].Frames)
	}
	if streams[2].Frames[0].Fields != nil {
		t.Errorf("undecoded HEADERS got fields %q", streams[2].Frames[0].Fields)
	}
	if f := streams[3].Frames[0]; f.Type != H3FrameSettings || f.Fields != nil {
		t.Errorf("SETTINGS frame: %+v", f)
	}
	if Header(nil, ":path") != "" || Header(connect, "absent") != "" {
		t.Error("Header of an absent field")
	}
}

// The whole path from tshark's JSON: STREAM frames reassembled, the http3 layer's decoded
// sections attached to the HEADERS frames, DATAGRAM frames collected.
func TestParseWebTransport(t *testing.T) {
	const doc = `[
 {"_source": {"layers": {
   "frame": {"frame.number": "1", "frame.time_epoch": "1700000000.000001"},
   "ip": {"ip.src": "198.18.0.100", "ip.dst": "198.18.1.100"},
   "udp": {"udp.srcport": "50000", "udp.dstport": "443", "udp.length": "100"},
   "quic": {"quic.connection.number": "0", "quic.header_form": "0", "quic.frame": [
     {"quic.frame_type": "10", "quic.stream.stream_id": "0", "quic.stream.offset": "0", "quic.stream.length": "5", "quic.stream_data": "01:03:00:00:d1"},
     {"quic.frame_type": "0x31", "quic.dg.length": "6", "quic.dg": "00:47:45:54:20:61"}]},
   "http3": {"http3.frame": {"http3.frame_type": "0x0000000000000001", "http3.frame_payload": "00:00:d1",
     "http3.headers.header": [{"http3.header.header.name": ":method", "http3.headers.header.value": "CONNECT"}]}}}}},
 {"_source": {"layers": {
   "frame": {"frame.number": "2", "frame.time_epoch": "1700000000.000002"},
   "ip": {"ip.src": "198.18.1.100", "ip.dst": "198.18.0.100"},
   "udp": {"udp.srcport": "443", "udp.dstport": "50000", "udp.length": "100"},
   "quic": {"quic.connection.number": "0", "quic.header_form": "0", "quic.frame": [
     {"quic.frame_type": "15", "quic.stream.stream_id": "3", "quic.stream.offset": "0", "quic.stream.length": "5", "quic.stream_data": "40:54:00:68:69"}]}}}}
]`
	tr, err := Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.H3Streams) != 2 {
		t.Fatalf("%d streams", len(tr.H3Streams))
	}
	req, push := tr.H3Streams[0], tr.H3Streams[1]
	if req.Dir != ClientToServer || len(req.Frames) != 1 || Header(req.Frames[0].Fields, ":method") != "CONNECT" {
		t.Errorf("CONNECT stream: %+v", req)
	}
	if push.Dir != ServerToClient || push.WTSession == nil || *push.WTSession != 0 || string(push.WTPayload) != "hi" || !push.Fin {
		t.Errorf("WebTransport stream: %+v", push)
	}
	if len(tr.H3Datagrams) != 1 || tr.H3Datagrams[0].Frame != 1 || string(tr.H3Datagrams[0].Data) != "\x00GET a" {
		t.Errorf("datagrams %+v", tr.H3Datagrams)
	}
}
