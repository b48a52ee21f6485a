package grpcweb

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// grpc-timeout is "TimeoutValue TimeoutUnit": 1 to 8 ASCII digits, then one of H M S m u n
// (PROTOCOL-HTTP2.md).

const maxTimeoutValue = 99999999

var timeoutUnits = []struct {
	unit byte
	d    time.Duration
}{{'n', time.Nanosecond}, {'u', time.Microsecond}, {'m', time.Millisecond}, {'S', time.Second}, {'M', time.Minute}, {'H', time.Hour}}

// ParseTimeout parses a grpc-timeout value. Values too large for a time.Duration saturate.
func ParseTimeout(s string) (time.Duration, error) {
	if len(s) < 2 || len(s) > 9 {
		return 0, fmt.Errorf("grpcweb: grpc-timeout %q: want 1 to 8 digits and a unit", s)
	}
	digits, unit := s[:len(s)-1], s[len(s)-1]
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, fmt.Errorf("grpcweb: grpc-timeout %q: value is not decimal digits", s)
		}
	}
	n, _ := strconv.ParseInt(digits, 10, 64) // at most 8 digits: cannot fail
	for _, u := range timeoutUnits {
		if u.unit == unit {
			if n > int64(math.MaxInt64/u.d) {
				return time.Duration(math.MaxInt64), nil
			}
			return time.Duration(n) * u.d, nil
		}
	}
	return 0, fmt.Errorf("grpcweb: grpc-timeout %q: unknown unit %q", s, unit)
}

// FormatTimeout formats d in the finest unit whose value fits in 8 digits, rounding up so a
// forwarded deadline is never earlier than the original. d <= 0 formats as "0n" (already expired).
func FormatTimeout(d time.Duration) string {
	if d <= 0 {
		return "0n"
	}
	for _, u := range timeoutUnits {
		n := d / u.d
		if d%u.d != 0 {
			n++ // round up
		}
		if n <= maxTimeoutValue {
			return strconv.FormatInt(int64(n), 10) + string(u.unit)
		}
	}
	return strconv.Itoa(maxTimeoutValue) + "H"
}
