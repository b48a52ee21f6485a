package quiccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// Every check says what testcases.yml calls it, which RFC sections it verifies, what it reads
// and what passes, in one line each.
func TestCatalogMetadata(t *testing.T) {
	names := map[string]bool{"files": true} // the download comparison, not a trace check
	for _, c := range catalog {
		switch {
		case !regexp.MustCompile(`^[a-z0-9-]+$`).MatchString(c.Name):
			t.Errorf("%q: not a name testcases.yml can use", c.Name)
		case names[c.Name]:
			t.Errorf("%s: name used twice", c.Name)
		case !strings.HasPrefix(c.Requirement, "RFC "):
			t.Errorf("%s: requirement %q, want RFC sections", c.Name, c.Requirement)
		case c.Description == "" || strings.Contains(c.Description, "\n"):
			t.Errorf("%s: description %q, want one line", c.Name, c.Description)
		case c.Reads != WholeTrace && c.Reads != LongHeaders:
			t.Errorf("%s: reads %d", c.Name, c.Reads)
		case c.Run == nil:
			t.Errorf("%s: no function", c.Name)
		}
		names[c.Name] = true
	}
}

// Each check is declared in the file named after the first requirement it verifies and its
// name: "RFC 9000 §8.1" and amplificationlimit in rfc9000_8_1_amplificationlimit.go.
func TestCheckFileNames(t *testing.T) {
	section := regexp.MustCompile(`^RFC (\d+)(?: §(\d+(?:\.\d+)*))?`)
	for _, c := range catalog {
		m := section.FindStringSubmatch(c.Requirement)
		if m == nil {
			t.Errorf("%s: requirement %q does not start with an RFC number", c.Name, c.Requirement)
			continue
		}
		file := "rfc" + m[1]
		if m[2] != "" {
			file += "_" + strings.ReplaceAll(m[2], ".", "_")
		}
		file += "_" + strings.ReplaceAll(c.Name, "-", "_") + ".go"
		if !declares(t, file, c.Name) {
			t.Errorf("%s: not declared in %s", c.Name, file)
		}
	}
}

// declares reports whether file holds a Check literal with Name name.
func declares(t *testing.T, file, name string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Log(err)
		return false
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "Check" {
			return true
		}
		for _, e := range lit.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Name" {
				if v, ok := kv.Value.(*ast.BasicLit); ok && v.Value == strconv.Quote(name) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// No check passes without evidence, and each reports under its catalog name.
func TestNoCheckPassesOnAnEmptyTrace(t *testing.T) {
	for _, c := range catalog {
		r := c.Run(&quictrace.Trace{})
		if r.OK() || r.Check != c.Name {
			t.Errorf("%s on an empty trace: %s", c.Name, r)
		}
	}
}

func TestLookup(t *testing.T) {
	if c, ok := Lookup("amplificationlimit"); !ok || c != &amplificationLimit {
		t.Errorf("Lookup(amplificationlimit) = %v, %v", c, ok)
	}
	if _, ok := Lookup("files"); ok {
		t.Error("files is not a trace check")
	}
	if n := len(Names()); n != len(catalog) {
		t.Errorf("%d names for %d checks", n, len(catalog))
	}
}

// The handshake-only tshark pass is chosen only when every check of a case reads long headers.
func TestLongHeadersSuffice(t *testing.T) {
	for _, c := range []struct {
		checks []string
		want   bool
	}{
		{[]string{"handshake", "transfer", "retry"}, true},
		{[]string{"transfer", "keyupdate"}, false},
		{[]string{"transfer", "no-such-check"}, false},
	} {
		if got := LongHeadersSuffice(c.checks); got != c.want {
			t.Errorf("LongHeadersSuffice(%v) = %v, want %v", c.checks, got, c.want)
		}
	}
}
