package netem

import (
	"testing"
	"time"
)

// out_of_order counts every packet released before an earlier one, whichever impairment sent
// it ahead (reorder counts only the reorder impairment's), and nothing on an in-order link.
func TestOutOfOrderCountsEveryOvertake(t *testing.T) {
	cases := []struct {
		name string
		p    Params
		none bool // an in-order link: the count must be 0
	}{
		{"jitter with reordering", Params{Delay: 50 * ms, Jitter: 20 * ms, JitterReorder: true}, false},
		{"jitter without reordering", Params{Delay: 50 * ms, Jitter: 20 * ms}, true},
		{"reorder impairment", Params{Delay: 50 * ms, Reorder: Reorder{Probability: 0.1, Gap: 3}}, false},
		{"delay only", Params{Delay: 50 * ms}, true},
	}
	for _, c := range cases {
		l := newLink(t, ToClient, 5, c.p)
		ds := released(feed(l, 5000, 0, ms, 1000))
		var want uint64
		latest := time.Duration(-1)
		for _, d := range ds {
			if d.ReleaseAt < latest {
				want++
			}
			latest = max(latest, d.ReleaseAt)
		}
		st := l.Stats()
		if st.OutOfOrder != want || (want == 0) != c.none {
			t.Errorf("%s: out_of_order %d, %d packets overtook an earlier one", c.name, st.OutOfOrder, want)
		}
		if c.p.Reorder.Probability > 0 && st.OutOfOrder != st.Reordered {
			t.Errorf("%s: out_of_order %d, reordered %d", c.name, st.OutOfOrder, st.Reordered)
		}
	}
}
