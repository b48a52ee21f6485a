// Package manifest reads images/<name>/manifest.yml: what an image contains and which roles it
// plays in each suite. The registry of images is simply the set of manifests under images/.
package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// FileName is the manifest's name inside every images/<name>/ folder.
const FileName = "manifest.yml"

// Manifest is one image's declaration.
type Manifest struct {
	Name           string              `yaml:"name"`
	Description    string              `yaml:"description"`
	Image          string              `yaml:"image"` // docker reference; default wirelab/<name>:latest
	Implementation Implementation      `yaml:"implementation"`
	Roles          map[string][]string `yaml:"roles"`     // suite -> roles
	Testcases      map[string][]string `yaml:"testcases"` // suite -> supported test cases
	// ALPN: suite -> application protocols the image speaks in its ordinary test cases (quic:
	// default [hq-interop], as upstream; an h3-only client such as curl says [h3]). A pair with
	// none in common cannot run those cases.
	ALPN map[string][]string `yaml:"alpn"`
	// Switches: what the server's run_endpoint.sh accepts of make bench's QUIC_CC, QUIC_GSO and
	// QUIC_HYSTART (switches.go); none: no switch.
	Switches Switches `yaml:"switches"`
	Build    Build    `yaml:"build"`

	Dir  string `yaml:"-"` // folder holding the manifest
	File string `yaml:"-"` // path of the manifest file
}

// Implementation names what the image runs, with its exact version.
type Implementation struct {
	Name    string `yaml:"name"`
	Version string `yaml:"version"`
	Source  string `yaml:"source"` // where it comes from: Debian package, Go module, wirelab
	// What a registry knows the implementation as (`wirelab versions` asks it for the newest):
	// the Debian packages carrying it (binary or source package names), or the Go module it is
	// built from. Neither for what this repository makes itself. See packages.go.
	Packages []string `yaml:"packages"`
	Module   string   `yaml:"module"`
}

// Build says how the image is made. Dependencies on other wirelab images are read from the
// Dockerfile's FROM lines, so they cannot drift from what docker actually builds.
type Build struct {
	Dockerfile string   `yaml:"dockerfile"` // relative to Dir; default Dockerfile
	Context    string   `yaml:"context"`    // relative to Dir; default "."
	Prepare    string   `yaml:"prepare"`    // host script run before docker build (e.g. base rootfs)
	Go         []string `yaml:"go"`         // Go main packages (./... or a required module's) built static into <Dir>/.build/<last element>
	// GoModule is a folder (relative to Dir) with a go.mod of its own that build.go's packages
	// are built in, for a program that needs other versions of shared modules than wirelab's
	// module pins (webtransport-go needs an older quic-go than the QUIC suite's). Default: the
	// checkout's module.
	GoModule   string   `yaml:"go_module"`
	VersionCmd []string `yaml:"version_cmd"`
}

// Error is a manifest problem: one line naming file and field.
type Error struct {
	File, Field, Msg string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Msg)
}

var (
	nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,62}$`)
	refRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9_./-]*(:[A-Za-z0-9_.-]+)?$`)
)

// Parse decodes and validates one manifest. dir is the folder the manifest lives in.
func Parse(file, dir string, data []byte) (*Manifest, error) {
	var m Manifest
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: file, Msg: "empty manifest"}
		}
		return nil, yamlError(file, err)
	}
	m.Dir, m.File = dir, file
	if err := m.validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

func (m *Manifest) validate() error {
	bad := func(field, format string, a ...any) error {
		return &Error{File: m.File, Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	switch {
	case m.Name == "":
		return bad("name", "missing")
	case !nameRE.MatchString(m.Name):
		return bad("name", "%q is not a valid image name (lowercase letters, digits, . _ -)", m.Name)
	case m.Dir != "" && filepath.Base(m.Dir) != m.Name:
		return bad("name", "%q does not match its folder %q", m.Name, filepath.Base(m.Dir))
	case m.Image != "" && !refRE.MatchString(m.Image):
		return bad("image", "%q is not a docker image reference", m.Image)
	case m.Implementation.Name == "":
		return bad("implementation.name", "missing")
	case m.Implementation.Version == "":
		return bad("implementation.version", "missing (give the exact version)")
	case len(m.Roles) == 0:
		return bad("roles", "missing (at least one suite with its roles)")
	}
	for _, suite := range sortedKeys(m.Roles) {
		if !nameRE.MatchString(suite) {
			return bad("roles."+suite, "%q is not a suite name", suite)
		}
		if len(m.Roles[suite]) == 0 {
			return bad("roles."+suite, "empty role list")
		}
		for i, r := range m.Roles[suite] {
			if !nameRE.MatchString(r) {
				return bad(fmt.Sprintf("roles.%s[%d]", suite, i), "%q is not a role name", r)
			}
		}
	}
	for _, suite := range sortedKeys(m.Testcases) {
		if _, ok := m.Roles[suite]; !ok {
			return bad("testcases."+suite, "suite has no roles in this manifest")
		}
		for i, tc := range m.Testcases[suite] {
			name, role, inRole := strings.Cut(tc, "@") // case@role: supported in that role only
			switch {
			case !nameRE.MatchString(name):
				return bad(fmt.Sprintf("testcases.%s[%d]", suite, i), "%q is not a test case name", tc)
			case inRole && !contains(m.Roles[suite], role):
				return bad(fmt.Sprintf("testcases.%s[%d]", suite, i), "%q: the image plays no role %q in %s", tc, role, suite)
			}
		}
	}
	for _, suite := range sortedKeys(m.ALPN) {
		if len(m.ALPN[suite]) == 0 {
			return bad("alpn."+suite, "empty list")
		}
	}
	if err := m.validatePackages(); err != nil {
		return err
	}
	if err := m.Switches.validate(m); err != nil {
		return err
	}
	for field, p := range map[string]string{"build.dockerfile": m.Build.Dockerfile, "build.context": m.Build.Context, "build.prepare": m.Build.Prepare, "build.go_module": m.Build.GoModule} {
		if p != "" && (filepath.IsAbs(p) || strings.HasPrefix(filepath.Clean(p), "..")) {
			return bad(field, "%q must be a path inside the image folder", p)
		}
	}
	if m.Build.GoModule != "" && m.Dir != "" {
		if _, err := os.Stat(filepath.Join(m.Dir, m.Build.GoModule, "go.mod")); err != nil {
			return bad("build.go_module", "%q has no go.mod", m.Build.GoModule)
		}
	}
	for i, pkg := range m.Build.Go {
		if strings.HasPrefix(pkg, "/") || strings.Contains(pkg, "..") || strings.ContainsAny(pkg, " @") {
			return bad(fmt.Sprintf("build.go[%d]", i), "%q must be a package of this module (./images/%s) or of a module go.mod requires", pkg, m.Name)
		}
	}
	return nil
}

// Ref is the docker image reference this manifest builds.
func (m *Manifest) Ref() string {
	if m.Image != "" {
		return m.Image
	}
	return "wirelab/" + m.Name + ":latest"
}

// DockerfilePath is the Dockerfile's path on disk.
func (m *Manifest) DockerfilePath() string {
	return filepath.Join(m.Dir, or(m.Build.Dockerfile, "Dockerfile"))
}

// ContextDir is the docker build context on disk.
func (m *Manifest) ContextDir() string { return filepath.Join(m.Dir, or(m.Build.Context, ".")) }

// Plays reports whether the image has role in suite.
func (m *Manifest) Plays(suite, role string) bool { return contains(m.Roles[suite], role) }

// LoadDir reads every images/*/manifest.yml under root; names must be unique.
func LoadDir(root string) ([]*Manifest, error) {
	files, err := filepath.Glob(filepath.Join(root, "*", FileName))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no */%s found", root, FileName)
	}
	sort.Strings(files)
	var out []*Manifest
	seen := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		m, err := Parse(f, filepath.Dir(f), data)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[m.Ref()]; dup {
			return nil, &Error{File: f, Field: "image", Msg: fmt.Sprintf("%s is also built by %s", m.Ref(), prev)}
		}
		seen[m.Ref()] = f
		out = append(out, m)
	}
	return out, nil
}

// yamlError turns a yaml.v3 error ("yaml: line 3: field foo not found in type ...") into our
// one-line form, keeping the line number and naming the offending key when yaml.v3 does.
func yamlError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.ReplaceAll(msg, "\n", "; ")
	if m := unknownFieldRE.FindStringSubmatch(msg); m != nil {
		return &Error{File: file, Field: m[2], Msg: "unknown field (" + m[1] + ")"}
	}
	return &Error{File: file, Msg: msg}
}

var unknownFieldRE = regexp.MustCompile(`(line \d+): field (\S+) not found in type`)

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Schema is what the registered suites accept in manifests, by suite: the roles an image can
// play and the application protocols it can declare ("tool" images play free-form helper roles).
type Schema map[string]SuiteSchema

// SuiteSchema is one suite's part of the schema.
type SuiteSchema struct {
	Roles []string
	ALPN  []string // nil: the suite negotiates no ALPN here
}

// Check holds every manifest to the registered suites' schema: a suite that is not registered,
// a role it does not have, an ALPN it does not negotiate is an error naming file and field.
func Check(ms []*Manifest, s Schema) error {
	var names []string
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, m := range ms {
		bad := func(field, format string, a ...any) error {
			return &Error{File: m.File, Field: field, Msg: fmt.Sprintf(format, a...)}
		}
		for _, suite := range sortedKeys(m.Roles) {
			if suite == "tool" {
				continue
			}
			schema, known := s[suite]
			if !known {
				return bad("roles."+suite, "unknown suite (want one of %s, or tool)", strings.Join(names, ", "))
			}
			for i, r := range m.Roles[suite] {
				if !contains(schema.Roles, r) {
					return bad(fmt.Sprintf("roles.%s[%d]", suite, i), "unknown role %q (want %s)", r, strings.Join(schema.Roles, ", "))
				}
			}
		}
		for _, suite := range sortedKeys(m.ALPN) {
			schema := s[suite]
			if len(schema.ALPN) == 0 {
				return bad("alpn."+suite, "suite %s negotiates no ALPN here", suite)
			}
			for i, a := range m.ALPN[suite] {
				if !contains(schema.ALPN, a) {
					return bad(fmt.Sprintf("alpn.%s[%d]", suite, i), "%q: want one of %s", a, strings.Join(schema.ALPN, ", "))
				}
			}
		}
	}
	return nil
}
