package profile

import (
	"fmt"
	"regexp"
	"strings"
)

// A reference names a profile and optionally overrides some of its fields:
//
//	name[:key=value]...
//
// key is either a dotted path under both, to_client, to_server or rebind
// (to_client.loss, both.blackhole.on, rebind.freq) or the short name of a
// parameter the profile declares under params: (rate_to_client, on,
// first-rebind). A key without "=value" means "=true", for flags such as
// rebind-addr. Values use the same syntax as the file.

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// override is one key=value of a reference, with aliases expanded.
type override struct {
	key   string // as written, for error messages
	path  string // dotted path
	value string
}

// ref is a parsed reference.
type ref struct {
	name      string
	overrides []override
}

// canonical spells the reference with parameters expanded to paths.
func (r ref) canonical() string {
	var b strings.Builder
	b.WriteString(r.name)
	for _, o := range r.overrides {
		fmt.Fprintf(&b, ":%s=%s", o.path, o.value)
	}
	return b.String()
}

// parseRef splits and checks a reference against the file: the profile must
// exist and every key must be a parameter or an overridable path.
func (f *File) parseRef(s string) (ref, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	r := ref{name: strings.TrimSpace(parts[0])}
	if r.name == "" {
		return r, f.errf("", "empty profile reference %q", s)
	}
	if _, ok := f.raw.Profiles[r.name]; !ok {
		return r, f.errf("profiles."+r.name, "unknown profile (known: %s)", strings.Join(f.Names(), ", "))
	}
	params := f.params(r.name)
	for _, part := range parts[1:] {
		k, v, hasValue := strings.Cut(part, "=")
		o := override{key: strings.TrimSpace(k), value: strings.TrimSpace(v)}
		if !hasValue {
			o.value = "true"
		}
		field := r.name + ":" + o.key
		switch {
		case o.key == "":
			return r, f.errf(field, "empty override in %q (want key=value)", s)
		case strings.Contains(o.key, "."):
			o.path = o.key
		default:
			p, ok := params[o.key]
			if !ok {
				return r, f.errf(field, "unknown parameter (known: %s; or a path like to_client.loss)", strings.Join(sortedNames(params), ", "))
			}
			o.path = p.Set
		}
		if err := setPath(&rawProfile{}, o.path, o.value); err != nil {
			return r, f.errf(field, "%v", err)
		}
		r.overrides = append(r.overrides, o)
	}
	return r, nil
}

// apply writes the overrides into a fresh rawProfile, in order.
func (r ref) apply() *rawProfile {
	ov := &rawProfile{}
	for _, o := range r.overrides {
		_ = setPath(ov, o.path, o.value) // checked in parseRef
	}
	return ov
}
