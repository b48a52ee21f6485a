package probe

import (
	"testing"
	"time"
)

func TestParseLoadavg(t *testing.T) {
	for _, c := range []struct {
		in       string
		load     float64
		runnable int
	}{
		{"9.98 8.22 6.38 14/211 20207\n", 9.98, 14},
		{"0.00 0.01 0.05 1/88 1", 0, 1},
		{"x 8.22 6.38 14/211 20207", -1, 14},
		{"9.98 8.22 6.38 ?/211 20207", 9.98, -1},
		{"9.98", -1, -1},
		{"", -1, -1},
	} {
		if load, n := parseLoadavg(c.in); load != c.load || n != c.runnable {
			t.Errorf("parseLoadavg(%q) = %v, %d; want %v, %d", c.in, load, n, c.load, c.runnable)
		}
	}
}

// TestMeterWindows: the run queue averages only the windows asked for, and an unknown sample
// does not count; lates are those of one window.
func TestMeterWindows(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	m := &meter{ticks: []tick{
		{at(0), 1 * time.Millisecond, 2},
		{at(10), 0, 4},
		{at(20), 50 * time.Millisecond, 30}, // the flood: not in the quiet windows
		{at(30), 0, -1},
		{at(40), 2 * time.Millisecond, 6},
	}}
	if q := m.runQueue([2]time.Time{at(0), at(10)}, [2]time.Time{at(30), at(40)}); q != 4 {
		t.Errorf("run queue %v, want 4 (2, 4 and 6; the unknown one left out)", q)
	}
	if q := m.runQueue([2]time.Time{at(50), at(60)}); q != -1 {
		t.Errorf("run queue of no sample %v, want -1", q)
	}
	if l := m.lates(at(10), at(30)); len(l) != 3 || percentile(l, 100) != 50*time.Millisecond {
		t.Errorf("lates %v", l)
	}
}
