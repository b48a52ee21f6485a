package simcheck

import "testing"

// Each check passes on a faithful measurement and fails on an unfaithful one.
func TestChecksPassAndFail(t *testing.T) {
	cases := []struct {
		name string
		c    Check
		pass bool
	}{
		{"rtt p50 on target", RTTP50("p", 30, 30.6), true},
		{"rtt p50 1.5 ms off", RTTP50("p", 30, 31.5), false},
		{"rtt p50 too fast", RTTP50("p", 30, 28.5), false},
		{"rtt p99 within slack", RTTP99("p", 30, 0, 31.9), true},
		{"rtt p99 beyond slack", RTTP99("p", 30, 0, 36), false},
		{"rtt p99 jitter widens", RTTP99("p", 30, 4, 35), true},
		{"5% measured as 5.1%", Loss("p", "loss", 0.05, 510, 10000), true},
		{"5% measured as 0%", Loss("p", "loss", 0.05, 0, 10000), false},
		{"0% measured as 5%: distinguishable", Loss("p", "loss", 0, 500, 10000), false},
		{"0% measured as 0%", Loss("p", "loss", 0, 0, 10000), true},
		{"too few packets", Loss("p", "loss", 0.05, 50, 1000), false},
		{"rate 10 as 9.7", Rate("p", "rate", 10, 9.7), true},
		{"rate 10 as 9.4", Rate("p", "rate", 10, 9.4), false},
		{"rate 10 as 20 (limiter off)", Rate("p", "rate", 10, 20), false},
		{"blackhole gap seen", Blackhole("p", 2000, 1, 1990), true},
		{"no blackhole gap", Blackhole("p", 2000, 1, 3), false},
	}
	for _, c := range cases {
		if c.c.Pass != c.pass {
			t.Errorf("%s: pass=%v, want %v (%s)", c.name, c.c.Pass, c.pass, c.c)
		}
	}
}
