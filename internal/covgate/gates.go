// Package covgate reads coverage/gates.yml (per target: the file set and the line, branch and
// function thresholds `make coverage` enforces), judges measured coverage against it, and
// ratchets the thresholds up to what was measured.
package covgate

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Kinds of target.
const (
	KindC  = "c"  // a fuzz target in fuzz/<name>/, its corpus replayed under gcov, judged by gcovr
	KindGo = "go" // wirelab's own Go code, `go test -coverprofile`
)

// Metrics, in the order they are reported.
var Metrics = []string{"lines", "branches", "functions"}

// Gate is one target's entry.
type Gate struct {
	Target string
	Kind   string
	// Files are regular expressions selecting the gated files: for c, gcovr --filter
	// expressions relative to the target's source root; for go, matched against paths relative
	// to the repository (the whole path must match).
	Files []string
	// OnlyFunctions (c only), when set, narrows the file set to the functions whose whole name
	// matches one of these regular expressions (a decoder beside its encoder in one file).
	OnlyFunctions []string
	// Thresholds in percent per metric; a metric that is absent is not gated (nil).
	Thresholds map[string]*float64
}

// File is a parsed gates file.
type File struct {
	Path  string
	Gates []*Gate // in file order
}

// Error is a bad gates file: one line naming the file and the field.
type Error struct{ File, Field, Msg string }

func (e *Error) Error() string { return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Msg) }

var targetRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// Load reads and validates a gates file.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Field: "(file)", Msg: err.Error()}
	}
	return Parse(path, data)
}

// Parse validates gates file data; path only names it in errors.
func Parse(path string, data []byte) (*File, error) {
	bad := func(field, format string, a ...any) error {
		return &Error{File: path, Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil && err != io.EOF {
		return nil, bad("(yaml)", "%s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, bad("(top level)", "want a mapping with key targets")
	}
	var targets *yaml.Node
	for i := 0; i+1 < len(doc.Content[0].Content); i += 2 {
		k, v := doc.Content[0].Content[i], doc.Content[0].Content[i+1]
		if k.Value != "targets" {
			return nil, bad(k.Value, "unknown field (want targets)")
		}
		targets = v
	}
	if targets == nil || targets.Kind != yaml.MappingNode || len(targets.Content) == 0 {
		return nil, bad("targets", "missing or empty (want a mapping: target name -> gate)")
	}
	f := &File{Path: path}
	seen := map[string]bool{}
	for i := 0; i+1 < len(targets.Content); i += 2 {
		name, body := targets.Content[i].Value, targets.Content[i+1]
		field := "targets." + name
		if !targetRE.MatchString(name) {
			return nil, bad(field, "bad target name (want lowercase letters, digits, - and _)")
		}
		if seen[name] {
			return nil, bad(field, "duplicate target")
		}
		seen[name] = true
		g, err := parseGate(name, body, func(sub, format string, a ...any) error {
			return bad(field+"."+sub, format, a...)
		})
		if err != nil {
			return nil, err
		}
		f.Gates = append(f.Gates, g)
	}
	return f, nil
}

func parseGate(name string, body *yaml.Node, bad func(sub, format string, a ...any) error) (*Gate, error) {
	g := &Gate{Target: name, Kind: KindC, Thresholds: map[string]*float64{}}
	var err error
	if body.Kind != yaml.MappingNode {
		return nil, bad("(gate)", "want a mapping (kind, files, lines, branches, functions)")
	}
	for i := 0; i+1 < len(body.Content); i += 2 {
		k, v := body.Content[i].Value, body.Content[i+1]
		switch k {
		case "kind":
			if v.Kind != yaml.ScalarNode || (v.Value != KindC && v.Value != KindGo) {
				return nil, bad(k, "%q: want c or go", v.Value)
			}
			g.Kind = v.Value
		case "files":
			if g.Files, err = regexList(v, k, bad); err != nil {
				return nil, err
			}
		case "only_functions":
			if g.OnlyFunctions, err = regexList(v, k, bad); err != nil {
				return nil, err
			}
		case "lines", "branches", "functions":
			p, err := percent(v)
			if err != nil {
				return nil, bad(k, "%v", err)
			}
			g.Thresholds[k] = &p
		default:
			return nil, bad(k, "unknown field (want kind, files, only_functions, lines, branches, functions)")
		}
	}
	if len(g.Files) == 0 {
		return nil, bad("files", "missing (the gated file set: a list of regular expressions)")
	}
	if len(g.Thresholds) == 0 {
		return nil, bad("lines", "no threshold at all (give lines, branches and/or functions)")
	}
	if g.Kind == KindGo && g.OnlyFunctions != nil {
		return nil, bad("only_functions", "only for kind c (a Go gate selects files)")
	}
	if g.Kind == KindGo && g.Thresholds["branches"] != nil {
		return nil, bad("branches", "Go coverage profiles have no branch data; remove it for kind go")
	}
	return g, nil
}

// regexList reads a non-empty list of regular expressions.
func regexList(v *yaml.Node, k string, bad func(sub, format string, a ...any) error) ([]string, error) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, bad(k, "want a non-empty list of regular expressions")
	}
	var out []string
	for j, e := range v.Content {
		if e.Kind != yaml.ScalarNode || e.Value == "" {
			return nil, bad(fmt.Sprintf("%s[%d]", k, j), "want a non-empty string")
		}
		if _, err := regexp.Compile(e.Value); err != nil {
			return nil, bad(fmt.Sprintf("%s[%d]", k, j), "bad regular expression: %v", err)
		}
		out = append(out, e.Value)
	}
	return out, nil
}

func percent(v *yaml.Node) (float64, error) {
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!int" && v.Tag != "!!float") {
		return 0, fmt.Errorf("%q: want a number of percent (0-100)", v.Value)
	}
	p, err := strconv.ParseFloat(v.Value, 64)
	if err != nil || math.IsNaN(p) || p < 0 || p > 100 {
		return 0, fmt.Errorf("%s: want a number of percent (0-100)", v.Value)
	}
	return p, nil
}

// Gate returns the named target's gate, or nil.
func (f *File) Gate(target string) *Gate {
	for _, g := range f.Gates {
		if g.Target == target {
			return g
		}
	}
	return nil
}

// Targets returns the names of the gates of one kind, sorted.
func (f *File) Targets(kind string) []string {
	var out []string
	for _, g := range f.Gates {
		if g.Kind == kind {
			out = append(out, g.Target)
		}
	}
	sort.Strings(out)
	return out
}

// MatchesFile reports whether a repository-relative path is in a Go gate's file set.
func (g *Gate) MatchesFile(rel string) bool {
	for _, f := range g.Files {
		if regexp.MustCompile(`^(?:` + f + `)$`).MatchString(rel) {
			return true
		}
	}
	return false
}
