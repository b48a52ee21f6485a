package covgate

import (
	"bufio"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Block is one basic block of a Go coverage profile.
type Block struct {
	StartLine, StartCol, EndLine, EndCol int
	Stmts, Count                         int
}

// Profile is a Go coverage profile (`go test -coverprofile`), blocks per repository-relative
// file. Blocks that several packages' test binaries report (-coverpkg) are merged by position.
type Profile struct {
	Files map[string][]Block
}

// ParseProfile reads a profile; modPath (the module path) is stripped from the file names so
// they are relative to the repository. Files outside the module are dropped.
func ParseProfile(r io.Reader, modPath string) (*Profile, error) {
	p := &Profile{Files: map[string][]Block{}}
	index := map[string]map[[4]int]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if n == 1 {
			if !strings.HasPrefix(line, "mode: ") {
				return nil, fmt.Errorf("line 1: want \"mode: ...\", got %q", line)
			}
			continue
		}
		if line == "" {
			continue
		}
		name, b, err := parseBlock(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		rel, ok := strings.CutPrefix(name, modPath+"/")
		if !ok {
			continue
		}
		key := [4]int{b.StartLine, b.StartCol, b.EndLine, b.EndCol}
		if index[rel] == nil {
			index[rel] = map[[4]int]int{}
		}
		if i, dup := index[rel][key]; dup {
			p.Files[rel][i].Count += b.Count
			continue
		}
		index[rel][key] = len(p.Files[rel])
		p.Files[rel] = append(p.Files[rel], b)
	}
	return p, sc.Err()
}

// parseBlock parses "file.go:12.34,15.2 3 1".
func parseBlock(line string) (string, Block, error) {
	var b Block
	colon := strings.LastIndex(line, ":")
	if colon < 0 {
		return "", b, fmt.Errorf("no file name in %q", line)
	}
	f := strings.Fields(line[colon+1:])
	if len(f) != 3 {
		return "", b, fmt.Errorf("want \"file:l.c,l.c stmts count\", got %q", line)
	}
	pos := strings.FieldsFunc(f[0], func(r rune) bool { return r == '.' || r == ',' })
	if len(pos) != 4 {
		return "", b, fmt.Errorf("bad position %q", f[0])
	}
	nums := make([]int, 0, 6)
	for _, s := range append(pos, f[1], f[2]) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return "", b, fmt.Errorf("bad number %q in %q", s, line)
		}
		nums = append(nums, v)
	}
	b = Block{nums[0], nums[1], nums[2], nums[3], nums[4], nums[5]}
	return line[:colon], b, nil
}

// FileCoverage is one source file's line hits and functions.
type FileCoverage struct {
	Path      string
	Lines     map[int]int // line -> hits (the most-executed block on that line)
	Functions []FuncCoverage
}

// FuncCoverage is one function: covered when any of its blocks ran.
type FuncCoverage struct {
	Name      string
	Line      int
	Hits      int
	LineCount Counts
}

// Analyze turns a profile into per-file line and function coverage, restricted to the files
// the gate selects; root is the repository folder holding the sources (parsed for function
// boundaries). Lines are those a block with statements spans, as Go's own HTML view colours them.
func Analyze(p *Profile, g *Gate, root string) ([]FileCoverage, error) {
	var names []string
	for name := range p.Files {
		if g.MatchesFile(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var out []FileCoverage
	for _, name := range names {
		fc := FileCoverage{Path: name, Lines: map[int]int{}}
		blocks := p.Files[name]
		for _, b := range blocks {
			if b.Stmts == 0 {
				continue
			}
			for l := b.StartLine; l <= b.EndLine; l++ {
				if h, seen := fc.Lines[l]; !seen || b.Count > h {
					fc.Lines[l] = b.Count
				}
			}
		}
		funcs, err := functions(filepath.Join(root, name))
		if errors.Is(err, fs.ErrNotExist) {
			// Deleted since the test ran (another checkout edit): its lines still count.
			funcs = nil
		} else if err != nil {
			return nil, err
		}
		for _, f := range funcs {
			fcov := FuncCoverage{Name: f.name, Line: f.line}
			stmts := 0
			for _, b := range blocks {
				if b.Stmts > 0 && f.contains(b) {
					stmts += b.Stmts
					fcov.Hits = max(fcov.Hits, b.Count)
				}
			}
			if stmts == 0 {
				continue // nothing executable: neither covered nor uncovered
			}
			for l := f.line; l <= f.endLine; l++ {
				if h, ok := fc.Lines[l]; ok {
					fcov.LineCount.Total++
					if h > 0 {
						fcov.LineCount.Covered++
					}
				}
			}
			fc.Functions = append(fc.Functions, fcov)
		}
		out = append(out, fc)
	}
	return out, nil
}

// Totals sums lines and functions over files.
func Totals(files []FileCoverage) Measured {
	var lines, funcs Counts
	for _, f := range files {
		for _, h := range f.Lines {
			lines.Total++
			if h > 0 {
				lines.Covered++
			}
		}
		for _, fn := range f.Functions {
			funcs.Total++
			if fn.Hits > 0 {
				funcs.Covered++
			}
		}
	}
	return Measured{"lines": lines, "functions": funcs}
}

type funcSpan struct {
	name                       string
	line, col, endLine, endCol int
}

func (f funcSpan) contains(b Block) bool {
	after := b.StartLine > f.line || (b.StartLine == f.line && b.StartCol >= f.col)
	before := b.EndLine < f.endLine || (b.EndLine == f.endLine && b.EndCol <= f.endCol)
	return after && before
}

// functions lists a file's function and method bodies (function literals belong to their
// enclosing function, as in `go tool cover -func`).
func functions(path string) ([]funcSpan, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("coverage profile names %s: %w", path, err)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return nil, err
	}
	var out []funcSpan
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			name = recvName(fd.Recv.List[0].Type) + "." + name
		}
		start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
		out = append(out, funcSpan{name, start.Line, start.Column, end.Line, end.Column})
	}
	return out, nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return "(*" + recvName(t.X) + ")"
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}
