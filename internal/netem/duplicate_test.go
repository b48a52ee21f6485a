package netem

import "testing"

func TestDuplicationRate(t *testing.T) {
	const n = 10_000
	l := newLink(t, ToClient, 5, Params{Delay: 10 * ms, Duplicate: 0.03})
	ds := feed(l, n, 0, ms, 1000)
	dups := 0
	for _, d := range ds {
		if d.Duplicate != nil {
			dups++
			if d.Duplicate.ReleaseAt < d.ReleaseAt {
				t.Fatalf("seq %d: duplicate at %v before original %v", d.Seq, d.Duplicate.ReleaseAt, d.ReleaseAt)
			}
		}
	}
	ok(t, inCI("duplicate", dups, n, 0.03))
	if st := l.Stats(); st.Duplicated != uint64(dups) || st.PacketsOut != n+uint64(dups) || st.BytesOut != (n+uint64(dups))*1000 {
		t.Errorf("stats %+v, %d duplicates", st, dups)
	}
}

func TestDuplicateUsesLinkCapacity(t *testing.T) {
	// 1000 B at 8 Mbit/s = 1 ms: the copy departs one serialization after
	// the original, and a full queue refuses the copy.
	l := newLink(t, ToClient, 5, Params{Rate: 8_000_000, Queue: Depth{Packets: 3}, Duplicate: 1})
	ds := feed(l, 3, 0, 0, 1000)
	if ds[0].ReleaseAt != ms || ds[0].Duplicate == nil || ds[0].Duplicate.ReleaseAt != 2*ms {
		t.Fatalf("first: %+v dup %+v", ds[0], ds[0].Duplicate)
	}
	if ds[1].ReleaseAt != 3*ms || ds[1].Duplicate != nil {
		t.Errorf("second (queue full for its copy): %+v", ds[1])
	}
	if !ds[2].Drop || ds[2].Cause != DropQueue {
		t.Errorf("third: %+v", ds[2])
	}
	ok(t, statsAddUp(l.Stats(), ds))
}

func TestDuplicatesKeepOrder(t *testing.T) {
	// With jitter and no reordering allowed, original, copy and the next
	// packet leave in that order.
	l := newLink(t, ToServer, 5, Params{Delay: 20 * ms, Jitter: 15 * ms, JitterDist: Normal, Duplicate: 0.5})
	var flat []Decision
	for _, d := range feed(l, 3000, 0, ms, 800) {
		flat = append(flat, d)
		if d.Duplicate != nil {
			flat = append(flat, Decision{Seq: d.Seq, ReleaseAt: d.Duplicate.ReleaseAt})
		}
	}
	ok(t, noReorder(flat))
}
