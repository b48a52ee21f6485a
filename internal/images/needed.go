package images

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/manifest"
)

// Selection narrows a suite's role players: role -> the image names a run is limited to (the
// suite's --servers, --clients). A role it does not name keeps every image that plays it.
type Selection map[string][]string

// Needed returns the images a run of suite starts, in build order after the images they build
// FROM: every image with a role in the suite (as sel narrows them) and every image whose
// manifest says the suite uses it without a role (used_by: the sim, tshark, ...).
func Needed(ms []*manifest.Manifest, suite string, sel Selection) ([]*manifest.Manifest, error) {
	if !slices.Contains(manifest.Suites(), suite) {
		return nil, fmt.Errorf("unknown suite %q (want one of %s)", suite, strings.Join(manifest.Suites(), ", "))
	}
	players := map[string][]string{} // role -> the images playing it in suite
	for _, m := range ms {
		for _, role := range m.Roles[suite] {
			players[role] = append(players[role], m.Name)
		}
	}
	if len(players) == 0 {
		return nil, fmt.Errorf("no image has a role in the %s suite", suite)
	}
	roles := make([]string, 0, len(sel))
	for role := range sel {
		roles = append(roles, role)
	}
	sort.Strings(roles)
	for _, role := range roles {
		known, ok := players[role]
		if !ok {
			return nil, fmt.Errorf("no image plays %s in the %s suite", role, suite)
		}
		for _, name := range sel[role] {
			if !slices.Contains(known, name) {
				return nil, fmt.Errorf("unknown %s %s %q (known: %s)", suite, role, name, strings.Join(known, ", "))
			}
		}
	}
	var want []string
	for _, m := range ms {
		if slices.Contains(m.UsedBy, suite) || selected(m, suite, sel) {
			want = append(want, m.Name)
		}
	}
	return manifest.BuildOrder(ms, want)
}

// selected reports whether m plays a role in suite that sel leaves open or names it for.
func selected(m *manifest.Manifest, suite string, sel Selection) bool {
	for _, role := range m.Roles[suite] {
		if names := sel[role]; len(names) == 0 || slices.Contains(names, m.Name) {
			return true
		}
	}
	return false
}
