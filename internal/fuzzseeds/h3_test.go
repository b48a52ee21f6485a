package fuzzseeds

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/wirelab/wirelab/internal/quicvarint"
)

// appendVarint encodes v in exactly n bytes (1, 2, 4 or 8), as RFC 9000 §16 allows.
func appendVarint(b []byte, v uint64, n int) []byte {
	prefix := map[int]byte{1: 0x00, 2: 0x40, 4: 0x80, 8: 0xc0}[n]
	for i := n - 1; i >= 0; i-- {
		c := byte(v >> (8 * i))
		if i == n-1 {
			c |= prefix
		}
		b = append(b, c)
	}
	return b
}

func TestVarintEveryLength(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		v    uint64
		n    int
		name string
	}{
		{[]byte{0x25}, 37, 1, "1 byte"},
		{[]byte{0x7b, 0xbd}, 15293, 2, "2 bytes"},
		{[]byte{0x9d, 0x7f, 0x3e, 0x7d}, 494878333, 4, "4 bytes"},
		{[]byte{0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c}, 151288809941952652, 8, "8 bytes"},
		{[]byte{0x40, 0x25}, 37, 2, "non-minimal 2-byte 37"},
		{[]byte{0x3f, 0xff}, 63, 1, "trailing bytes untouched"},
	} {
		v, n := quicvarint.Read(c.in)
		if v != c.v || n != c.n {
			t.Errorf("%s: % x -> %d (%d bytes), want %d (%d)", c.name, c.in, v, n, c.v, c.n)
		}
	}
	// Bad input: every prefix shorter than the length its first byte announces.
	for _, in := range [][]byte{{}, {0x7b}, {0x9d, 0x7f, 0x3e}, {0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8}} {
		if v, n := quicvarint.Read(in); n != 0 {
			t.Errorf("truncated % x: got %d (%d bytes), want n == 0", in, v, n)
		}
	}
}

// joinEncoder merges adjacent encoder chunks (their boundaries follow the feeds).
func joinEncoder(evs []Event) []Event {
	var out []Event
	for _, ev := range evs {
		if n := len(out); ev.Encoder != nil && n > 0 && out[n-1].Encoder != nil {
			out[n-1].Encoder = append(append([]byte(nil), out[n-1].Encoder...), ev.Encoder...)
			continue
		}
		out = append(out, ev)
	}
	return out
}

// feedAll feeds b to a new parser for id whole and byte by byte; both must give the same events
// (encoder chunks joined).
func feedAll(t *testing.T, id uint64, b []byte) ([]Event, *H3Stream) {
	t.Helper()
	whole := NewH3Stream(id)
	evs := whole.Feed(b)
	bytewise := NewH3Stream(id)
	var evs2 []Event
	for i := range b {
		evs2 = append(evs2, bytewise.Feed(b[i:i+1])...)
	}
	if !reflect.DeepEqual(evs, joinEncoder(evs2)) {
		t.Fatalf("stream %d: whole %v, byte by byte %v", id, evs, evs2)
	}
	if whole.Kind != bytewise.Kind || whole.Partial() != bytewise.Partial() {
		t.Fatalf("stream %d: whole kind %v partial %v, byte by byte %v %v", id, whole.Kind, whole.Partial(), bytewise.Kind, bytewise.Partial())
	}
	return evs, whole
}

func TestRequestStreamFramesEveryVarintLength(t *testing.T) {
	for _, n := range []int{1, 2, 4, 8} {
		var b []byte
		// HEADERS, DATA, an unknown (reserved) frame type, HEADERS again (trailers): type and length
		// in n-byte varints.
		b = appendVarint(appendVarint(b, FrameHeaders, n), 3, n)
		b = append(b, 0x00, 0x00, 0xd1)
		b = appendVarint(appendVarint(b, FrameData, n), 5, n)
		b = append(b, "hello"...)
		b = appendVarint(appendVarint(b, 0x21, n), 2, n)
		b = append(b, 0xaa, 0xbb)
		b = appendVarint(appendVarint(b, FrameHeaders, n), 2, n)
		b = append(b, 0x00, 0x00)
		evs, s := feedAll(t, 4, b)
		want := []Event{{Section: []byte{0x00, 0x00, 0xd1}}, {Section: []byte{0x00, 0x00}}}
		if !reflect.DeepEqual(evs, want) || s.Kind != KindRequest || s.Partial() {
			t.Errorf("%d-byte varints: %v (kind %v partial %v), want %v", n, evs, s.Kind, s.Partial(), want)
		}
	}
}

func TestTruncatedFrameGivesNothing(t *testing.T) {
	full := []byte{FrameHeaders, 0x04, 0x00, 0x00, 0xd1, 0xd7}
	for cut := 0; cut < len(full); cut++ {
		evs, s := feedAll(t, 0, full[:cut])
		if len(evs) != 0 {
			t.Errorf("cut at %d: events %v, want none", cut, evs)
		}
		if cut > 0 && !s.Partial() {
			t.Errorf("cut at %d: Partial() false", cut)
		}
	}
	if evs, s := feedAll(t, 0, full); len(evs) != 1 || s.Partial() {
		t.Errorf("whole frame: %v partial %v", evs, s.Partial())
	}
	// A frame header cut inside its length varint (2-byte length, one byte present).
	if evs, s := feedAll(t, 0, []byte{FrameHeaders, 0x40}); len(evs) != 0 || !s.Partial() {
		t.Errorf("cut length varint: %v partial %v", evs, s.Partial())
	}
}

func TestUniStreamTypes(t *testing.T) {
	settings := []byte{FrameSettings, 0x08, 0x01, 0x50, 0x00, 0x07, 0x10, 0x06, 0x44, 0x00} // 0x01=4096, 0x07=16, 0x06=1024
	cases := []struct {
		name string
		id   uint64
		in   []byte
		kind StreamKind
		want []Event
	}{
		{"control", 3, append([]byte{UniControl}, settings...), KindControl,
			[]Event{{Settings: map[uint64]uint64{1: 4096, 7: 16, 6: 1024}}}},
		{"encoder", 7, []byte{UniQPACKEncoder, 0x3f, 0xe1, 0x1f}, KindEncoder, []Event{{Encoder: []byte{0x3f, 0xe1, 0x1f}}}},
		{"decoder", 11, []byte{UniQPACKDecoder, 0x81}, KindDecoder, nil},
		{"push", 15, []byte{UniPush, 0x00, FrameHeaders, 0x01, 0x00}, KindIgnored, nil},
		{"reserved type in 2 bytes", 2, []byte{0x40, 0x21, UniQPACKEncoder, 0x11}, KindIgnored, nil},
		{"encoder type in 2 bytes", 6, []byte{0x40, UniQPACKEncoder, 0x20}, KindEncoder, []Event{{Encoder: []byte{0x20}}}},
		{"server bidi", 1, []byte{FrameHeaders, 0x01, 0x00}, KindIgnored, nil},
		{"HEADERS on control is no section", 3, []byte{UniControl, FrameHeaders, 0x01, 0x00}, KindControl, nil},
		{"SETTINGS on a request stream is no setting", 0, settings, KindRequest, nil},
	}
	for _, c := range cases {
		evs, s := feedAll(t, c.id, c.in)
		if s.Kind != c.kind || !reflect.DeepEqual(evs, c.want) {
			t.Errorf("%s: kind %v events %v, want %v %v", c.name, s.Kind, evs, c.kind, c.want)
		}
	}
	// The type alone, cut: still pending.
	if _, s := feedAll(t, 2, []byte{0x40}); s.Kind != KindPending || !s.Partial() {
		t.Errorf("cut stream type: kind %v partial %v", s.Kind, s.Partial())
	}
}

func TestSettingsMalformed(t *testing.T) {
	if set, err := ParseSettings([]byte{0x01, 0x50, 0x00}); err != "" || set[1] != 4096 {
		t.Fatalf("good SETTINGS: %v %q", set, err)
	}
	for _, in := range [][]byte{{0x01}, {0x01, 0x50}, {0x40}} {
		if _, err := ParseSettings(in); err == "" {
			t.Errorf("% x: no error", in)
		}
	}
	// On the control stream a malformed SETTINGS stops the parser and says why.
	evs, s := feedAll(t, 3, []byte{UniControl, FrameSettings, 0x01, 0x01})
	if len(evs) != 0 || s.Bad == "" {
		t.Errorf("malformed SETTINGS frame: events %v bad %q", evs, s.Bad)
	}
}

func TestEncoderChunksKeepTheirBoundaries(t *testing.T) {
	s := NewH3Stream(2)
	var got [][]byte
	for _, b := range [][]byte{{UniQPACKEncoder}, {0x3f, 0xe1}, {0x1f}} {
		for _, ev := range s.Feed(b) {
			got = append(got, ev.Encoder)
		}
	}
	if len(got) != 2 || !bytes.Equal(got[0], []byte{0x3f, 0xe1}) || !bytes.Equal(got[1], []byte{0x1f}) {
		t.Errorf("chunks %x", got)
	}
}
