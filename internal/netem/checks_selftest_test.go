package netem

import (
	"testing"
	"time"
)

// TestChecksRejectBadInput proves every check used by the engine tests fails
// on a violation (and passes on a conforming input), so a passing engine test
// means something.
func TestChecksRejectBadInput(t *testing.T) {
	rel := func(seq int, at time.Duration) Decision { return Decision{Seq: seq, ReleaseAt: at} }
	drop := func(seq int, c DropCause) Decision { return Decision{Seq: seq, Drop: true, Cause: c} }
	pkts := []PacketInfo{udp(100)}
	cases := []struct {
		name      string
		good, bad error
	}{
		{"inCI", inCI("x", 50, 1000, 0.05), inCI("x", 80, 1000, 0.05)},
		{"ciDisjoint", ciDisjoint(0, 10000, 500, 10000), ciDisjoint(480, 10000, 500, 10000)},
		{"near", near("x", 1.05, 1, 0.1), near("x", 1.2, 1, 0.1)},
		{"sameDecisions", sameDecisions([]Decision{rel(1, 1)}, []Decision{rel(1, 1)}), sameDecisions([]Decision{rel(1, 1)}, []Decision{rel(1, 2)})},
		{"differentDecisions", differentDecisions([]Decision{rel(1, 1)}, []Decision{rel(1, 2)}), differentDecisions([]Decision{rel(1, 1)}, []Decision{rel(1, 1)})},
		{"dropsExactly/set", dropsExactly([]Decision{rel(1, 0), drop(2, DropDroplist)}, DropDroplist, []int{2}), dropsExactly([]Decision{drop(1, DropDroplist), rel(2, 0)}, DropDroplist, []int{2})},
		{"dropsExactly/cause", nil, dropsExactly([]Decision{drop(1, DropLoss)}, DropDroplist, []int{1})},
		{"noReorder", noReorder([]Decision{rel(1, 5), rel(2, 5), rel(3, 6)}), noReorder([]Decision{rel(1, 5), rel(2, 4)})},
		{"spacing", spacing([]time.Duration{0, ms, 2 * ms}, ms), spacing([]time.Duration{0, ms, 3 * ms}, ms)},
		{"within", within("x", []time.Duration{1, 2}, 1, 2), within("x", []time.Duration{1, 3}, 1, 2)},
		{"reorderGap/count", reorderGap([]Decision{rel(1, 10), rel(2, 11), {Seq: 3, ReleaseAt: 9, Reordered: true}}, 2),
			reorderGap([]Decision{rel(1, 10), rel(2, 11), {Seq: 3, ReleaseAt: 10, Reordered: true}}, 2)},
		{"reorderGap/unmarked", nil, reorderGap([]Decision{rel(1, 10), rel(2, 9)}, 1)},
		{"flipsInPayload/offset", flipsInPayload(pkts, []Decision{{Corrupt: []ByteFlip{{Offset: 28, Mask: 1}}}}),
			flipsInPayload(pkts, []Decision{{Corrupt: []ByteFlip{{Offset: 27, Mask: 1}}}})},
		{"flipsInPayload/end", nil, flipsInPayload(pkts, []Decision{{Corrupt: []ByteFlip{{Offset: 100, Mask: 1}}}})},
		{"flipsInPayload/mask", nil, flipsInPayload(pkts, []Decision{{Corrupt: []ByteFlip{{Offset: 30, Mask: 0}}}})},
		{"statsAddUp/conservation",
			statsAddUp(LinkStats{PacketsIn: 2, PacketsOut: 2, Duplicated: 1, Dropped: DropCounts{Loss: 1}}, []Decision{drop(1, DropLoss), {Seq: 2, Duplicate: &Copy{}}}),
			statsAddUp(LinkStats{PacketsIn: 2, PacketsOut: 2, Dropped: DropCounts{Loss: 1}}, []Decision{drop(1, DropLoss), rel(2, 0)})},
		{"statsAddUp/cause", nil,
			statsAddUp(LinkStats{PacketsIn: 1, PacketsOut: 0, Dropped: DropCounts{Queue: 1}}, []Decision{drop(1, DropLoss)})},
	}
	for _, c := range cases {
		if c.good != nil {
			t.Errorf("%s rejected a good input: %v", c.name, c.good)
		}
		if c.bad == nil {
			t.Errorf("%s accepted a bad input", c.name)
		}
	}
}
