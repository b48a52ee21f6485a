package quicvarint

import (
	"bytes"
	"testing"
)

// RFC 9000 Appendix A.1's examples, and the boundaries of each length.
func TestReadAppend(t *testing.T) {
	for _, tc := range []struct {
		v   uint64
		enc []byte
	}{
		{151288809941952652, []byte{0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c}},
		{494878333, []byte{0x9d, 0x7f, 0x3e, 0x7d}},
		{15293, []byte{0x7b, 0xbd}},
		{37, []byte{0x25}},
		{63, []byte{0x3f}}, {64, []byte{0x40, 0x40}}, {Max, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
	} {
		if got := Append(nil, tc.v); !bytes.Equal(got, tc.enc) {
			t.Errorf("Append(%d) = %x, want %x", tc.v, got, tc.enc)
		}
		if v, n := Read(append(tc.enc, 0xaa)); v != tc.v || n != len(tc.enc) {
			t.Errorf("Read(%x) = %d, %d", tc.enc, v, n)
		}
	}
	// RFC 9000 A.1: 0x4025 is 37 in two bytes (not the shortest form, still valid).
	if v, n := Read([]byte{0x40, 0x25}); v != 37 || n != 2 {
		t.Errorf("0x4025: %d %d", v, n)
	}
	for _, short := range [][]byte{nil, {0x40}, {0x80, 1, 2}, {0xc0, 1, 2, 3, 4, 5, 6}} {
		if _, n := Read(short); n != 0 {
			t.Errorf("Read(%x): n %d, want 0", short, n)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Append above Max did not panic")
		}
	}()
	Append(nil, Max+1)
}
