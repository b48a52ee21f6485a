package quictrace

import "testing"

// A pass whose HTTP/3 dissector threw on a packet lost that packet's second STREAM frame (as
// tshark 4.4 does: "New fragment past old data limits", the rest of the packet undissected): the
// stream reads back with a hole and no FIN. The frames-only pass of the same capture has the
// frame; after RepairStreams the stream is whole, and what the first pass alone knew (a HEADERS
// frame's decoded fields, the datagram's HTTP/3 frame types) is kept.
func TestRepairStreams(t *testing.T) {
	headers := string([]byte{0x01, 0x03, 0x00, 0x00, 0xd1}) // HEADERS, 3 bytes: a QPACK section
	first := &Trace{Datagrams: []Datagram{
		oneRTT(1, ClientToServer, 0, stream(0, 0, headers, true)),
		oneRTT(2, ServerToClient, 0, stream(1, 0, "abc", false)), // the frame after this one was lost
		oneRTT(3, ServerToClient, 0, stream(1, 6, "ghi", true)),
	}}
	first.Datagrams[0].H3Frames = []uint64{H3FrameHeaders}
	first.sections = map[string][]HeaderField{"0000d1": {{Name: ":method", Value: "GET"}}}
	first.H3Streams = reassembleH3(first)
	if s := streamOf(first, 1); s.Fin || len(s.Raw) != 3 {
		t.Fatalf("before: stream 1 holds %q fin %v: the fixture must show the hole", s.Raw, s.Fin)
	}
	framesOnly := &Trace{Datagrams: []Datagram{
		oneRTT(1, ClientToServer, 0, stream(0, 0, headers, true)),
		oneRTT(2, ServerToClient, 0, stream(1, 0, "abc", false), stream(1, 3, "def", false)),
		oneRTT(3, ServerToClient, 0, stream(1, 6, "ghi", true)),
	}}
	RepairStreams(first, framesOnly)
	if s := streamOf(first, 1); !s.Fin || string(s.Raw) != "abcdefghi" {
		t.Errorf("after: stream 1 holds %q fin %v, want abcdefghi with FIN", s.Raw, s.Fin)
	}
	req := streamOf(first, 0)
	if len(req.Frames) != 1 || Header(req.Frames[0].Fields, ":method") != "GET" {
		t.Errorf("the HEADERS frame lost its decoded fields: %+v", req.Frames)
	}
	if len(first.Datagrams[0].H3Frames) != 1 {
		t.Error("the datagram lost the HTTP/3 frame types the first pass found")
	}
}

func streamOf(t *Trace, id int64) H3Stream {
	for _, s := range t.H3Streams {
		if s.ID == id {
			return s
		}
	}
	return H3Stream{}
}
