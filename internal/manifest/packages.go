package manifest

import (
	"fmt"
	"regexp"
)

var (
	// Debian Policy §5.6.1: lowercase letters, digits, + - . ; two characters at least.
	debPackageRE = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`)
	// A Go module path as the proxy serves it: a dotted host, then path elements. The go command
	// checks the rest when it is asked.
	modulePathRE = regexp.MustCompile(`^[a-z0-9-]+(\.[a-z0-9-]+)+(/[A-Za-z0-9._~+-]+)*$`)
)

// validatePackages checks implementation.packages / implementation.module: well-formed names, not
// both, and for several packages a version per package that PinnedVersion can find.
func (m *Manifest) validatePackages() error {
	impl := m.Implementation
	bad := func(field, format string, a ...any) error {
		return &Error{File: m.File, Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	if impl.Module != "" {
		if len(impl.Packages) > 0 {
			return bad("implementation.module", "give packages (Debian) or module (Go), not both")
		}
		if !modulePathRE.MatchString(impl.Module) {
			return bad("implementation.module", "%q is not a Go module path", impl.Module)
		}
	}
	seen := map[string]bool{}
	for i, p := range impl.Packages {
		field := fmt.Sprintf("implementation.packages[%d]", i)
		switch {
		case !debPackageRE.MatchString(p):
			return bad(field, "%q is not a Debian package name", p)
		case seen[p]:
			return bad(field, "%q listed twice", p)
		}
		seen[p] = true
		if _, ok := impl.PinnedVersion(p); !ok {
			return bad(field, "%q: with several packages implementation.version must say \"%s VERSION\" for each", p, p)
		}
	}
	return nil
}

// PinnedVersion is the version the manifest pins for pkg (one of Packages, or Module): the whole
// implementation.version when there is one package or a module, else the version written after
// the package's name in it ("nghttp3 1.15.0-1~bpo13+1 (orig tarball), afl++ 4.21c-5").
func (i Implementation) PinnedVersion(pkg string) (string, bool) {
	if pkg == i.Module && pkg != "" || len(i.Packages) == 1 && i.Packages[0] == pkg {
		return i.Version, i.Version != ""
	}
	if !contains(i.Packages, pkg) {
		return "", false
	}
	// Versions start with a digit (epoch or upstream version, Debian Policy §5.6.12).
	re := regexp.MustCompile(`(?:^|[\s,;(])` + regexp.QuoteMeta(pkg) + `\s+([0-9][A-Za-z0-9.+~:-]*)`)
	if sm := re.FindStringSubmatch(i.Version); sm != nil {
		return sm[1], true
	}
	return "", false
}
