package topology

import "testing"

func TestParseMemUsage(t *testing.T) {
	for in, want := range map[string]int64{"12.5MiB / 23.4GiB": 12.5 * (1 << 20), "1.5GiB / 2GiB": 1.5 * (1 << 30), "512KiB / 1GiB": 512 << 10, "0B / 0B": 0} {
		if got, err := ParseMemUsage(in); err != nil || got != want {
			t.Errorf("%q: %d %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "--", "twelve MiB / 1GiB"} {
		if _, err := ParseMemUsage(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
