package manifest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// FromImageRef makes the manifest of an implementation given on the command line by reference
// (--image NAME=IMAGE[:role,role]) for one suite: roles default to client and server (those the
// suite has); it declares no test cases, so every case is tried.
func FromImageRef(s, suite string, suiteRoles []string) (*Manifest, error) {
	name, ref, ok := strings.Cut(s, "=")
	if !ok || name == "" || ref == "" {
		return nil, fmt.Errorf("%q: want NAME=IMAGE[:role,role]", s)
	}
	var roles []string
	if i := strings.LastIndex(ref, ":"); i > 0 {
		if named := strings.Split(ref[i+1:], ","); allIn(named, suiteRoles) {
			ref, roles = ref[:i], named
		}
	}
	if roles == nil {
		for _, r := range []string{"client", "server"} {
			if slices.Contains(suiteRoles, r) {
				roles = append(roles, r)
			}
		}
	}
	m := &Manifest{Name: name, Image: ref, File: "--image " + s, Roles: map[string][]string{suite: roles},
		Implementation: Implementation{Name: name, Version: "given by reference", Source: ref}}
	if !nameRE.MatchString(name) {
		return nil, fmt.Errorf("%q: %q is not a valid implementation name (lowercase letters, digits, . _ -)", s, name)
	}
	if !givenRefRE.MatchString(ref) {
		return nil, fmt.Errorf("%q: %q is not a docker image reference", s, ref)
	}
	return m, nil
}

// givenRefRE is a docker image reference as a user gives one: a registry host with a port, a
// path, a tag or a digest.
var givenRefRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*(:[0-9]+)?(/[a-z0-9_.-]+)*(:[A-Za-z0-9_.-]+)?(@sha256:[a-f0-9]{64})?$`)

func allIn(xs, set []string) bool {
	for _, x := range xs {
		if !slices.Contains(set, x) {
			return false
		}
	}
	return len(xs) > 0
}
