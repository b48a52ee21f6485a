package matrix

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Select keeps the named items (comma-separated; empty keeps all) and reports unknown names.
// The result is a slice of its own: changing it leaves all as it was.
func Select[T any](all []T, names string, name func(T) string, what string) ([]T, error) {
	if names == "" {
		return slices.Clone(all), nil
	}
	by := map[string]T{}
	for _, x := range all {
		by[name(x)] = x
	}
	var out []T
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		x, ok := by[n]
		if !ok {
			var known []string
			for k := range by {
				known = append(known, k)
			}
			sort.Strings(known)
			return nil, fmt.Errorf("unknown %s %q (known: %s)", what, n, strings.Join(known, ", "))
		}
		out = append(out, x)
	}
	return out, nil
}
