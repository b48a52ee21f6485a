package svgchart

import (
	"reflect"
	"testing"
)

func labels(ts []tick) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.label)
	}
	return out
}

func TestNiceStep(t *testing.T) {
	for raw, want := range map[float64]float64{0.3: 0.5, 1: 1, 1.1: 2, 2: 2, 3: 5, 7: 10, 12: 20, 0.0042: 0.005, 250: 500} {
		if got := niceStep(raw); got != want {
			t.Errorf("niceStep(%v) = %v, want %v", raw, got, want)
		}
	}
}

func TestLinearTicks(t *testing.T) {
	cases := []struct {
		lo, hi   float64
		wlo, whi float64
		want     []string
	}{
		{0, 10, 0, 10, []string{"0", "2", "4", "6", "8", "10"}},
		{3, 97, 0, 100, []string{"0", "20", "40", "60", "80", "100"}},
		{0.1, 0.33, 0.1, 0.35, []string{"0.1", "0.15", "0.2", "0.25", "0.3", "0.35"}},
		{-7, 7, -10, 10, []string{"-10", "-5", "0", "5", "10"}},
		{0, 1.2e6, 0, 1.5e6, []string{"0", "0.5M", "1M", "1.5M"}},
		{0, 9000, 0, 10000, []string{"0", "2k", "4k", "6k", "8k", "10k"}},
		{0, 45000, 0, 50000, []string{"0", "10k", "20k", "30k", "40k", "50k"}},
		{5, 5, 4.4, 5.6, []string{"4.4", "4.6", "4.8", "5", "5.2", "5.4", "5.6"}},
		{0, 0, -1, 1, []string{"-1", "-0.5", "0", "0.5", "1"}},
	}
	for _, c := range cases {
		lo, hi, ts := linearTicks(c.lo, c.hi)
		if lo != c.wlo || hi != c.whi || !reflect.DeepEqual(labels(ts), c.want) {
			t.Errorf("linearTicks(%v, %v) = %v %v %q, want %v %v %q", c.lo, c.hi, lo, hi, labels(ts), c.wlo, c.whi, c.want)
		}
		if n := len(ts); n < 3 || n > 11 {
			t.Errorf("linearTicks(%v, %v): %d ticks", c.lo, c.hi, n)
		}
	}
}

func TestLogTicks(t *testing.T) {
	lo, hi, ts := logTicks(3, 800)
	if lo != 0 || hi != 3 || !reflect.DeepEqual(labels(ts), []string{"1", "10", "100", "1k"}) {
		t.Errorf("logTicks(3, 800) = %v %v %q", lo, hi, labels(ts))
	}
	_, _, ts = logTicks(0.02, 0.9)
	if want := []string{"0.01", "0.02", "0.05", "0.1", "0.2", "0.5", "1"}; !reflect.DeepEqual(labels(ts), want) {
		t.Errorf("logTicks(0.02, 0.9) = %q, want %q", labels(ts), want)
	}
	_, _, ts = logTicks(1e-9, 1e9)
	if len(ts) > 8 {
		t.Errorf("logTicks over 18 decades gave %d ticks: %q", len(ts), labels(ts))
	}
	_, _, ts = logTicks(1e6, 1e6)
	if want := []string{"1M", "2M", "5M", "10M"}; !reflect.DeepEqual(labels(ts), want) {
		t.Errorf("logTicks(1e6, 1e6) = %q, want %q", labels(ts), want)
	}
}
