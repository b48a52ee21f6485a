package versions

import (
	"cmp"
	"strconv"
	"strings"
)

// debCompare orders two Debian versions the way dpkg does (Debian Policy §5.6.12): the epoch
// numerically, then upstream version and revision with the rule that alternates non-digit runs
// (compared by character, ~ before everything, even the end) and digit runs (compared as numbers).
func debCompare(a, b string) int {
	ea, ua, ra := splitDebVersion(a)
	eb, ub, rb := splitDebVersion(b)
	if c := cmp.Compare(ea, eb); c != 0 {
		return c
	}
	if c := debCompareRuns(ua, ub); c != 0 {
		return c
	}
	return debCompareRuns(ra, rb)
}

// splitDebVersion splits [epoch:]upstream[-revision]; the revision follows the last hyphen.
func splitDebVersion(v string) (epoch int, upstream, revision string) {
	if i := strings.IndexByte(v, ':'); i >= 0 {
		epoch, _ = strconv.Atoi(v[:i])
		v = v[i+1:]
	}
	if i := strings.LastIndexByte(v, '-'); i >= 0 {
		return epoch, v[:i], v[i+1:]
	}
	return epoch, v, ""
}

func debCompareRuns(a, b string) int {
	for a != "" || b != "" {
		for (a != "" && !debIsDigit(a[0])) || (b != "" && !debIsDigit(b[0])) {
			wa, wb := debWeight(a), debWeight(b)
			if wa != wb {
				return cmp.Compare(wa, wb)
			}
			a, b = a[1:], b[1:] // equal weights: the same non-digit character on both sides
		}
		da, db := debDigits(a), debDigits(b)
		a, b = a[len(da):], b[len(db):]
		// Compare as numbers without parsing, so no run of digits is too long.
		da, db = strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
		if c := cmp.Compare(len(da), len(db)); c != 0 {
			return c
		}
		if c := strings.Compare(da, db); c != 0 {
			return c
		}
	}
	return 0
}

// debWeight is the sort weight of s's first character in a non-digit run: ~ sorts first, then
// the end of the run (0), then letters, then every other character.
func debWeight(s string) int {
	switch c := s; {
	case c == "" || debIsDigit(c[0]):
		return 0
	case c[0] == '~':
		return -1
	case c[0] >= 'A' && c[0] <= 'Z' || c[0] >= 'a' && c[0] <= 'z':
		return int(c[0])
	default:
		return int(c[0]) + 256
	}
}

func debIsDigit(c byte) bool { return c >= '0' && c <= '9' }

func debDigits(s string) string {
	i := 0
	for i < len(s) && debIsDigit(s[i]) {
		i++
	}
	return s[:i]
}
