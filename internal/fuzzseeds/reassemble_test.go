package fuzzseeds

import (
	"bytes"
	"testing"
)

type add struct {
	off  uint64
	data string
	want string // what this frame makes contiguous
}

func runAdds(t *testing.T, name string, adds []add) *Reassembler {
	t.Helper()
	var r Reassembler
	for i, a := range adds {
		got := r.Add(a.off, []byte(a.data))
		if !bytes.Equal(got, []byte(a.want)) {
			t.Errorf("%s: frame %d (off %d %q): got %q, want %q", name, i, a.off, a.data, got, a.want)
		}
	}
	return &r
}

func TestReassemblerInOrder(t *testing.T) {
	r := runAdds(t, "in order", []add{{0, "abc", "abc"}, {3, "def", "def"}, {6, "", ""}})
	if r.Delivered() != 6 || r.Gap() {
		t.Errorf("delivered %d gap %v", r.Delivered(), r.Gap())
	}
}

func TestReassemblerRetransmission(t *testing.T) {
	// The same frame twice (a retransmission whose ACK was lost) adds nothing the second time.
	r := runAdds(t, "retransmission", []add{{0, "abc", "abc"}, {0, "abc", ""}, {3, "de", "de"}, {3, "de", ""}})
	if r.Delivered() != 5 {
		t.Errorf("delivered %d, want 5", r.Delivered())
	}
}

func TestReassemblerOverlap(t *testing.T) {
	// A retransmission repackaged with new bytes: only what is past the contiguous end counts.
	runAdds(t, "overlap", []add{{0, "abcd", "abcd"}, {2, "cdef", "ef"}, {1, "bcdefgh", "gh"}})
	// Overlapping frames waiting beyond a gap: each byte once, in order.
	runAdds(t, "overlap beyond gap", []add{{4, "efgh", ""}, {6, "ghij", ""}, {0, "abcde", "abcdefghij"}})
}

func TestReassemblerOutOfOrder(t *testing.T) {
	r := runAdds(t, "out of order", []add{{6, "gh", ""}, {3, "def", ""}, {0, "abc", "abcdefgh"}})
	if r.Gap() {
		t.Error("no gap left, Gap() true")
	}
	// A chain where the late frame unlocks segments that arrived in reverse order.
	runAdds(t, "reverse chain", []add{{9, "j", ""}, {6, "ghi", ""}, {3, "def", ""}, {0, "abc", "abcdefghij"}})
}

func TestReassemblerGapStopsTheStream(t *testing.T) {
	r := runAdds(t, "gap", []add{{0, "abc", "abc"}, {5, "fgh", ""}, {8, "ij", ""}})
	if r.Delivered() != 3 || !r.Gap() {
		t.Fatalf("delivered %d gap %v, want 3 and a gap", r.Delivered(), r.Gap())
	}
	// Filling the hole releases everything behind it.
	if got := r.Add(3, []byte("de")); string(got) != "defghij" || r.Gap() {
		t.Errorf("after the hole: %q gap %v", got, r.Gap())
	}
}
