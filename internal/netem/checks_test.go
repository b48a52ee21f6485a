package netem

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"time"
)

// The checks below return an error instead of failing a test so that
// TestChecksRejectBadInput can prove each one actually catches a violation.

// z99 is the two-sided 99% normal quantile.
const z99 = 2.5758

// wilson is the Wilson score interval for k successes in n trials.
func wilson(k, n int, z float64) (lo, hi float64) {
	p := float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / den
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return c - h, c + h
}

// inCI fails when want lies outside the 99% CI of k/n.
func inCI(what string, k, n int, want float64) error {
	lo, hi := wilson(k, n, z99)
	if want < lo || want > hi {
		return fmt.Errorf("%s: measured %d/%d = %.4f, 99%% CI [%.4f, %.4f] excludes %.4f", what, k, n, float64(k)/float64(n), lo, hi, want)
	}
	return nil
}

// ciDisjoint fails when the 99% CIs of k1/n1 and k2/n2 overlap.
func ciDisjoint(k1, n1, k2, n2 int) error {
	lo1, hi1 := wilson(k1, n1, z99)
	lo2, hi2 := wilson(k2, n2, z99)
	if hi1 >= lo2 && hi2 >= lo1 {
		return fmt.Errorf("99%% CIs overlap: [%.4f,%.4f] vs [%.4f,%.4f]", lo1, hi1, lo2, hi2)
	}
	return nil
}

// near fails when got is not within rel (relative) of want.
func near(what string, got, want, rel float64) error {
	if math.Abs(got-want) > rel*math.Abs(want) {
		return fmt.Errorf("%s = %.4f, want %.4f ±%.0f%%", what, got, want, rel*100)
	}
	return nil
}

func sameDecisions(a, b []Decision) error {
	if len(a) != len(b) {
		return fmt.Errorf("length %d vs %d", len(a), len(b))
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			return fmt.Errorf("decision %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
	return nil
}

func differentDecisions(a, b []Decision) error {
	if sameDecisions(a, b) == nil {
		return fmt.Errorf("all %d decisions identical", len(a))
	}
	return nil
}

// dropsExactly fails unless the dropped Seqs are exactly want, all for cause.
func dropsExactly(ds []Decision, cause DropCause, want []int) error {
	var got []int
	for _, d := range ds {
		if d.Drop {
			if d.Cause != cause {
				return fmt.Errorf("seq %d dropped for %v, want %v", d.Seq, d.Cause, cause)
			}
			got = append(got, d.Seq)
		}
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("dropped %v, want %v", got, want)
	}
	return nil
}

// noReorder fails when a delivered original leaves before an earlier one.
func noReorder(ds []Decision) error {
	var last time.Duration
	for _, d := range released(ds) {
		if d.ReleaseAt < last {
			return fmt.Errorf("seq %d released at %v before an earlier packet (%v)", d.Seq, d.ReleaseAt, last)
		}
		last = d.ReleaseAt
	}
	return nil
}

// spacing fails unless consecutive times are exactly want apart.
func spacing(ts []time.Duration, want time.Duration) error {
	for i := 1; i < len(ts); i++ {
		if got := ts[i] - ts[i-1]; got != want {
			return fmt.Errorf("gap %d = %v, want %v", i, got, want)
		}
	}
	return nil
}

// within fails when a value lies outside [lo, hi].
func within(what string, vs []time.Duration, lo, hi time.Duration) error {
	for i, v := range vs {
		if v < lo || v > hi {
			return fmt.Errorf("%s[%d] = %v outside [%v, %v]", what, i, v, lo, hi)
		}
	}
	return nil
}

// overtaken counts the earlier delivered originals released after ds[i].
func overtaken(ds []Decision, i int) int {
	n := 0
	for _, d := range ds[:i] {
		if !d.Drop && d.ReleaseAt > ds[i].ReleaseAt {
			n++
		}
	}
	return n
}

// reorderGap fails unless every Reordered packet overtakes exactly gap
// packets and no other packet overtakes anything.
func reorderGap(ds []Decision, gap int) error {
	for i, d := range ds {
		if d.Drop {
			continue
		}
		n := overtaken(ds, i)
		if d.Reordered && n != gap {
			return fmt.Errorf("seq %d overtook %d packets, want %d", d.Seq, n, gap)
		}
		if !d.Reordered && n != 0 {
			return fmt.Errorf("seq %d not marked reordered but overtook %d", d.Seq, n)
		}
	}
	return nil
}

// flipsInPayload fails when a flip is outside its packet's payload or has a
// zero mask.
func flipsInPayload(pkts []PacketInfo, ds []Decision) error {
	for i, d := range ds {
		for _, f := range d.Corrupt {
			p := pkts[i]
			if f.Offset < p.PayloadOffset || f.Offset >= p.PayloadOffset+p.PayloadLen {
				return fmt.Errorf("seq %d: flip at %d outside payload [%d,%d)", d.Seq, f.Offset, p.PayloadOffset, p.PayloadOffset+p.PayloadLen)
			}
			if f.Mask == 0 {
				return fmt.Errorf("seq %d: zero mask flips nothing", d.Seq)
			}
		}
	}
	return nil
}

// statsAddUp checks the conservation law and the per-cause totals against
// the decisions that produced them.
func statsAddUp(st LinkStats, ds []Decision) error {
	if st.PacketsIn != uint64(len(ds)) {
		return fmt.Errorf("packets_in %d, want %d", st.PacketsIn, len(ds))
	}
	if st.PacketsOut != st.PacketsIn-st.Dropped.Total()+st.Duplicated {
		return fmt.Errorf("out %d != in %d - dropped %d + duplicated %d", st.PacketsOut, st.PacketsIn, st.Dropped.Total(), st.Duplicated)
	}
	var tally LinkStats
	for _, d := range ds {
		switch {
		case d.Drop:
			tally.Dropped.add(d.Cause)
			continue
		case d.Duplicate != nil:
			tally.Duplicated++
		}
		if len(d.Corrupt) > 0 {
			tally.Corrupted++
		}
		if d.MarkCE {
			tally.CEMarked++
		}
		if d.Reordered {
			tally.Reordered++
		}
	}
	if tally.Dropped != st.Dropped || tally.Duplicated != st.Duplicated || tally.Corrupted != st.Corrupted ||
		tally.CEMarked != st.CEMarked || tally.Reordered != st.Reordered {
		return fmt.Errorf("stats %+v disagree with decisions %+v", st, tally)
	}
	return nil
}
