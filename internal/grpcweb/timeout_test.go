package grpcweb

import (
	"math"
	"testing"
	"time"
)

func TestParseTimeout(t *testing.T) {
	good := map[string]time.Duration{
		"1H": time.Hour, "2M": 2 * time.Minute, "3S": 3 * time.Second, "4m": 4 * time.Millisecond,
		"5u": 5 * time.Microsecond, "6n": 6, "0n": 0, "99999999n": 99999999, "00000010S": 10 * time.Second,
		"99999999H": time.Duration(math.MaxInt64), // saturates instead of overflowing
	}
	for s, want := range good {
		if got, err := ParseTimeout(s); err != nil || got != want {
			t.Errorf("ParseTimeout(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "S", "1", "123456789S", "1s", "1 S", "-1S", "+1S", "1.5S", "1SS"} {
		if _, err := ParseTimeout(s); err == nil {
			t.Errorf("ParseTimeout(%q) accepted", s)
		}
	}
}

func TestFormatTimeout(t *testing.T) {
	tests := map[time.Duration]string{
		0: "0n", -time.Second: "0n", 1: "1n", 99999999: "99999999n",
		100000000:                    "100000u", // 0.1 s no longer fits in 8 digits of ns
		time.Second + 1:              "1000001u",
		100*time.Second + 1:          "100001m", // rounded up, never shortened
		30 * 24 * time.Hour:          "2592000S",
		time.Duration(math.MaxInt64): "2562048H",
	}
	for d, want := range tests {
		got := FormatTimeout(d)
		if got != want {
			t.Errorf("FormatTimeout(%v) = %q, want %q", d, got, want)
		}
		if back, err := ParseTimeout(got); err != nil || (d > 0 && back < d && d != time.Duration(math.MaxInt64)) {
			t.Errorf("ParseTimeout(FormatTimeout(%v)) = %v, %v", d, back, err)
		}
	}
}
