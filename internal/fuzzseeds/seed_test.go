package fuzzseeds

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSeedEncodeGolden(t *testing.T) {
	s := Seed{Capacity: 4096, MaxBlocked: 16, Records: []Record{
		{EncoderStreamID, []byte{0x3f, 0xe1, 0x1f}},
		{RecordStreamID(0), []byte{0x00, 0x00, 0xd1}},
		{RecordStreamID(0x1234567890), nil},
	}}
	want := unhex(t, `1000 10 00
		0000000000000000 00000003 3fe11f
		0000000000000004 00000003 0000d1
		0000001234567894 00000000`)
	if got := s.Encode(); !bytes.Equal(got, want) {
		t.Fatalf("encode:\n got %x\nwant %x", got, want)
	}
	if got := (&Seed{Knobs: 0x18}).Encode(); !bytes.Equal(got, []byte{0, 0, 0, 0x18}) {
		t.Errorf("empty seed: %x", got)
	}
	name := s.Name("aioquic_curl")
	if !regexp.MustCompile(`^trace-aioquic_curl-c2s-[0-9a-f]{8}$`).MatchString(name) {
		t.Errorf("name %q", name)
	}
	s.Dir = ToClient
	if n2 := s.Name("aioquic_curl"); n2 != name[:len(name)-12]+"s2c-"+n2[len(n2)-8:] || n2 == name {
		t.Errorf("s2c name %q (c2s %q)", n2, name)
	}
}

// The request stream 0 must not read as the encoder stream, and the shifted ids stay distinct,
// client-initiated and bidirectional.
func TestRecordStreamIDKeepsStreamsApart(t *testing.T) {
	seen := map[uint64]bool{EncoderStreamID: true}
	for id := uint64(0); id < 400; id += 4 {
		r := RecordStreamID(id)
		if seen[r] || r&3 != 0 {
			t.Fatalf("request stream %d -> %d: collides or is not client bidi", id, r)
		}
		seen[r] = true
	}
}

func TestSetLimitsClamps(t *testing.T) {
	for _, c := range []struct {
		set      map[uint64]uint64
		cap      uint16
		blocked  uint8
		scenario string
	}{
		{nil, 0, 0, "no SETTINGS: RFC 9204 defaults"},
		{map[uint64]uint64{1: 4096, 7: 100}, 4096, 100, "plain"},
		{map[uint64]uint64{1: 1 << 20, 7: 1000}, 0xffff, 0xff, "clamped"},
		{map[uint64]uint64{6: 1 << 20}, 0, 0, "other settings ignored"},
	} {
		var s Seed
		s.SetLimits(c.set)
		if s.Capacity != c.cap || s.MaxBlocked != c.blocked {
			t.Errorf("%s: %d/%d, want %d/%d", c.scenario, s.Capacity, s.MaxBlocked, c.cap, c.blocked)
		}
	}
}

func TestBuildOrdersRecordsByTraceAndUsesThePeersSettings(t *testing.T) {
	ctl := func(cap, blocked byte) []byte {
		return []byte{UniControl, FrameSettings, 0x04, 0x01, cap, 0x07, blocked}
	}
	frames := []StreamFrame{
		// listed out of frame order on purpose: Build sorts by frame number
		{Frame: 9, Dir: ToServer, StreamID: 0, Offset: 3, Data: []byte{0x00, 0xd1}}, // rest of the first request's HEADERS
		{Frame: 3, Dir: ToServer, StreamID: 2, Data: ctl(0x20, 5)},                  // client SETTINGS: 32, 5
		{Frame: 4, Dir: ToClient, StreamID: 3, Data: ctl(0x30, 9)},                  // server SETTINGS: 48, 9
		{Frame: 5, Dir: ToServer, StreamID: 6, Data: []byte{UniQPACKEncoder, 0x3f}}, // encoder, then more later
		{Frame: 6, Dir: ToServer, StreamID: 0, Data: []byte{FrameHeaders, 0x03, 0x00}},
		{Frame: 7, Dir: ToServer, StreamID: 4, Data: []byte{FrameHeaders, 0x02, 0x00, 0x00}},
		{Frame: 8, Dir: ToServer, StreamID: 6, Offset: 2, Data: []byte{0x11}},
		{Frame: 8, Dir: ToServer, StreamID: 6, Offset: 1, Data: []byte{0x3f}}, // retransmission
		{Frame: 10, Dir: ToClient, StreamID: 0, Data: []byte{FrameHeaders, 0x02, 0x00, 0x00, FrameData, 0x01, 'x'}},
		{Frame: 11, Dir: ToClient, StreamID: 7, Data: []byte{UniQPACKEncoder, 0x20}}, // encoder bytes only on conn 0 s2c
		{Frame: 12, Dir: ToServer, StreamID: 8, Offset: 2, Data: []byte{0x00, 0x00}}, // beyond a gap: never a section
		{Frame: 13, Conn: 1, Dir: ToClient, StreamID: 3, Data: ctl(0x10, 1)},
		{Frame: 14, Conn: 1, Dir: ToServer, StreamID: 0, Data: []byte{FrameHeaders, 0x01, 0x00}},
	}
	seeds, st := Build(frames)
	if len(seeds) != 3 {
		t.Fatalf("%d seeds, want 3 (conn 0 both ways, conn 1 c2s)", len(seeds))
	}
	c2s := seeds[0]
	wantRecs := []Record{{0, []byte{0x3f}}, {4 + 4, []byte{0x00, 0x00}}, {0, []byte{0x11}}, {0 + 4, []byte{0x00, 0x00, 0xd1}}}
	if c2s.Conn != 0 || c2s.Dir != ToServer || !reflect.DeepEqual(c2s.Records, wantRecs) {
		t.Errorf("conn 0 c2s: %+v, want records %v", c2s, wantRecs)
	}
	// The server decodes what the client sends: the server's SETTINGS (48, 9) bound it.
	if c2s.Capacity != 0x30 || c2s.MaxBlocked != 9 || c2s.EncoderBytes != 2 || c2s.Sections != 2 {
		t.Errorf("conn 0 c2s: capacity %d blocked %d encoder %d sections %d", c2s.Capacity, c2s.MaxBlocked, c2s.EncoderBytes, c2s.Sections)
	}
	s2c := seeds[1]
	if s2c.Dir != ToClient || s2c.Capacity != 0x20 || s2c.MaxBlocked != 5 ||
		!reflect.DeepEqual(s2c.Records, []Record{{4, []byte{0x00, 0x00}}, {0, []byte{0x20}}}) {
		t.Errorf("conn 0 s2c: %+v", s2c)
	}
	if c2s.NoSettings || s2c.NoSettings {
		t.Errorf("conn 0: SETTINGS were there both ways")
	}
	if c1 := seeds[2]; c1.Conn != 1 || c1.Dir != ToServer || c1.Capacity != 0x10 || c1.MaxBlocked != 1 || c1.NoSettings {
		t.Errorf("conn 1: %+v", c1)
	}
	if st.Streams != 10 || st.Gaps != 1 || st.Connections != 2 || st.Frames != len(frames) ||
		st.Sections != [2]int{3, 1} || st.EncoderBytes != [2]int{2, 1} {
		t.Errorf("stats %+v", st)
	}
}

func TestBuildWithoutPeerSettingsUsesDefaults(t *testing.T) {
	seeds, _ := Build([]StreamFrame{
		{Frame: 1, Dir: ToServer, StreamID: 2, Data: []byte{UniControl, FrameSettings, 0x02, 0x01, 0x20}}, // the sender's own SETTINGS do not count
		{Frame: 2, Dir: ToServer, StreamID: 0, Data: []byte{FrameHeaders, 0x02, 0x00, 0x00}},
	})
	if len(seeds) != 1 || !seeds[0].NoSettings || seeds[0].Capacity != 0 || seeds[0].MaxBlocked != 0 {
		t.Errorf("%+v", seeds)
	}
}

func TestBuildWithoutSectionsGivesNoSeed(t *testing.T) {
	seeds, st := Build([]StreamFrame{{Frame: 1, Dir: ToServer, StreamID: 2, Data: []byte{UniQPACKEncoder, 0x3f, 0xe1, 0x1f}}})
	if len(seeds) != 0 || st.EncoderBytes[ToServer] != 3 {
		t.Errorf("seeds %v stats %+v", seeds, st)
	}
	if seeds, _ := Build(nil); len(seeds) != 0 {
		t.Errorf("no frames: %v", seeds)
	}
}
