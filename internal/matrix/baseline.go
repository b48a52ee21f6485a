package matrix

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Baseline is a suite's known findings: the cells expected to fail or to flake, each with the
// finding that explains it (conformance/<suite>/expected.yml). A run matches its baseline when
// every failed cell is expected; a failed cell the baseline does not expect is a regression, and
// a cell expected to fail that passed is reported so the entry can go.
type Baseline struct {
	Path     string         `yaml:"-"`
	Expected []*Expectation `yaml:"expected"`
}

// Expectation is one entry: the cells it covers, a path.Match glob per axis (server, client
// and case always; the suite's own axes and sub when given, by name), and what they do.
type Expectation struct {
	Server string            `yaml:"server"`
	Client string            `yaml:"client"`
	Case   string            `yaml:"case"`
	Sub    string            `yaml:"sub,omitempty"`
	Axes   map[string]string `yaml:",inline"` // the suite's own axes: chain: wirelab
	Status string            `yaml:"status"`  // fail or flaky
	Reason string            `yaml:"reason"`  // the finding, one line
}

// Expectation statuses.
const (
	ExpectFail  = "fail"
	ExpectFlaky = "flaky"
)

// Universe is every value each axis of a suite's cells can have (unfiltered), by axis name: an
// entry that matches none is stale and could hide nothing. Axes it does not name are not
// checked (sub-cases are known only once they ran).
type Universe map[string][]string

// globs are the entry's axis globs by name; an axis it does not name matches anything.
func (x *Expectation) globs() []Axis {
	out := []Axis{{AxisServer, x.Server}, {AxisClient, x.Client}, {AxisCase, x.Case}}
	var names []string
	for n := range x.Axes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, Axis{n, x.Axes[n]})
	}
	if x.Sub != "" {
		out = append(out, Axis{AxisSub, x.Sub})
	}
	return out
}

// LoadBaseline reads a baseline file and checks every entry against the suite's universe; a bad
// or stale entry is an error naming the file, the entry and the field. An empty universe skips
// the staleness check (rewriting a baseline).
func LoadBaseline(file string, u Universe) (*Baseline, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	b := &Baseline{Path: file}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(b); err != nil && err.Error() != "EOF" {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	for i, x := range b.Expected {
		bad := func(field, f string, a ...any) error {
			return fmt.Errorf("%s: expected[%d].%s: %s", file, i, field, fmt.Sprintf(f, a...))
		}
		if x.Status != ExpectFail && x.Status != ExpectFlaky {
			return nil, bad("status", "%q: want fail or flaky", x.Status)
		}
		if strings.TrimSpace(x.Reason) == "" {
			return nil, bad("reason", "missing (the finding that explains the cell)")
		}
		for _, g := range x.globs() {
			values, known := u[g.Name]
			if g.Value == "" {
				return nil, bad(g.Name, "missing (a name or a glob such as *)")
			}
			if _, err := path.Match(g.Value, ""); err != nil {
				return nil, bad(g.Name, "%q: %v", g.Value, err)
			}
			if len(u) == 0 || g.Name == AxisSub {
				continue
			}
			if !known {
				return nil, bad(g.Name, "this suite has no axis %q (its axes: %s)", g.Name, strings.Join(u.axes(), ", "))
			}
			if !matchesAny(g.Value, values) {
				return nil, bad(g.Name, "%q matches no %s of this suite: a stale entry hides nothing, remove it", g.Value, g.Name)
			}
		}
	}
	return b, nil
}

func (u Universe) axes() []string {
	var out []string
	for n := range u {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func matchesAny(glob string, names []string) bool {
	for _, n := range names {
		if ok, _ := path.Match(glob, n); ok {
			return true
		}
	}
	return false
}

// covers reports whether the entry covers the cell: every axis it names matches, and an entry
// without sub covers whole cells only (a sub-case needs an entry naming it).
func (x *Expectation) covers(c Cell) bool {
	if (x.Sub == "") != (c.Sub == "") {
		return false
	}
	for _, g := range x.globs() {
		if ok, _ := path.Match(g.Value, c.Get(g.Name)); !ok {
			return false
		}
	}
	return true
}

// match is the first entry covering r's cell, or nil.
func (b *Baseline) match(r Result) *Expectation {
	for _, x := range b.Expected {
		if x.covers(r.Cell) {
			return x
		}
	}
	return nil
}

// BaselineReport is a run held against its baseline.
type BaselineReport struct {
	Regressions  []Result // failed, and no entry expects it
	Expected     []Result // failed, and an entry expects it (fail or flaky)
	FlakyPassed  []Result // passed where an entry says flaky
	NewlyPassing []Result // passed where an entry says fail: remove it from the baseline
}

// Compare holds results against the baseline. Unsupported cells count for nothing; a flaky entry
// accepts either outcome.
func (b *Baseline) Compare(results []Result) BaselineReport {
	var rep BaselineReport
	for _, r := range results {
		x := b.match(r)
		switch {
		case r.Result == Unsupported:
		case r.Result == Failed && x == nil:
			rep.Regressions = append(rep.Regressions, r)
		case r.Result == Failed:
			rep.Expected = append(rep.Expected, r)
		case x != nil && x.Status == ExpectFlaky:
			rep.FlakyPassed = append(rep.FlakyPassed, r)
		case x != nil && x.Status == ExpectFail:
			rep.NewlyPassing = append(rep.NewlyPassing, r)
		}
	}
	return rep
}

// WriteBaseline writes a baseline from a run: one entry per failed cell (flaky when its
// repetitions disagreed), keeping the reason an old entry gave, the old flaky entries as they
// are (a flake passes some runs), and the old entries that cover no cell of this run (cells it
// did not run).
func WriteBaseline(file string, results []Result, old *Baseline) error {
	b := Baseline{}
	covered := map[*Expectation]bool{}
	for _, r := range results {
		var x *Expectation
		if old != nil {
			x = old.match(r)
			covered[x] = true
		}
		if x != nil && x.Status == ExpectFlaky {
			continue // kept as written (below): one passing run does not end a flake
		}
		if r.Result != Failed && !r.Flaky() {
			continue
		}
		e := &Expectation{Server: r.Server, Client: r.Client, Case: r.Case, Sub: r.Sub, Axes: r.Axes, Status: ExpectFail, Reason: oneLine(r.Reason)}
		if r.Flaky() {
			e.Status = ExpectFlaky
		}
		if x != nil {
			e.Reason = x.Reason
		}
		b.Expected = append(b.Expected, e)
	}
	if old != nil {
		for _, x := range old.Expected {
			if !covered[x] || x.Status == ExpectFlaky {
				b.Expected = append(b.Expected, x)
			}
		}
	}
	sort.SliceStable(b.Expected, func(i, j int) bool {
		a, c := b.Expected[i], b.Expected[j]
		return fmt.Sprint(a.globs()) < fmt.Sprint(c.globs())
	})
	var buf bytes.Buffer
	buf.WriteString("# Cells expected to fail or to flake, each with the finding that explains it (written by\n" +
		"# `make baseline`; edit the reasons). A run fails only on a failed cell no entry expects; an\n" +
		"# entry that matches no cell of the suite is an error. Every axis (server, client, case, the\n" +
		"# suite's own such as chain, sub) is a glob; an axis an entry does not name matches any value.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(b); err != nil {
		return err
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}

// oneLine keeps a reason to one line of reasonable length.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 240 {
		s = s[:237] + "..."
	}
	return s
}
