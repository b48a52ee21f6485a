package cgroupcpu

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n": 1500 * time.Microsecond, // cgroup v2
		"29137544\n": 29137544 * time.Nanosecond, // cgroup v1
	} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "user_usec 5\n", "usage_usec x\n", "12 34"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
