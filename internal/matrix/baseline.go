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

// Baseline is a suite's known findings (conformance/<suite>/expected.yml): the cells and
// sub-cases expected to fail (each with the signature of its failure), to flake (each with its
// measured pass rate), or to find their case unsupported at run time. A run matches its baseline
// when every failure is expected as it happened; anything else that did not pass is a regression.
type Baseline struct {
	Path     string         `yaml:"-"`
	Expected []*Expectation `yaml:"expected"`
}

// Expectation is one entry: the cells it covers, a path.Match glob per axis (server, client
// and case always; the suite's own axes and sub when given, by name; sub's * also spans
// slashes), and what they do.
type Expectation struct {
	Server string            `yaml:"server"`
	Client string            `yaml:"client"`
	Case   string            `yaml:"case"`
	Sub    string            `yaml:"sub,omitempty"`
	Axes   map[string]string `yaml:",inline"` // the suite's own axes: chain: wirelab
	Status string            `yaml:"status"`  // fail, flaky or unsupported
	// Signature (fail, unsupported): a glob over the failure's signature (Signature: the reason
	// with numbers and ids made #); a failure with another signature is a regression.
	Signature string `yaml:"signature,omitempty"`
	// PassRate and Runs (flaky): the pass rate measured over Runs repetitions (make baseline from
	// a REPEAT run); a run's repetitions are held to it (BelowRate).
	PassRate float64 `yaml:"pass_rate,omitempty"`
	Runs     int     `yaml:"runs,omitempty"`
	Reason   string  `yaml:"reason"` // the finding, one line
	// Untriaged marks an entry whose reason is the raw failure, not yet a finding (make baseline
	// writes new entries so; the report lists them).
	Untriaged bool `yaml:"untriaged,omitempty"`
	// Passed counts the make baseline runs in a row in which the entry's cells passed: a stale
	// entry is reported, and pruned when it passed in the run the baseline is written from.
	Passed int `yaml:"passed,omitempty"`
}

// Expectation statuses.
const (
	ExpectFail        = "fail"
	ExpectFlaky       = "flaky"
	ExpectUnsupported = "unsupported" // unsupported at run time
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
		switch x.Status {
		case ExpectFail, ExpectUnsupported:
			if x.Signature == "" {
				return nil, bad("signature", "missing (the failure's class: make baseline writes it; a glob, * for any)")
			}
		case ExpectFlaky:
			if x.Runs < 2 || x.PassRate <= 0 || x.PassRate >= 1 {
				return nil, bad("pass_rate", "%v over %d runs: a flaky entry carries its measured pass rate (0 < rate < 1) "+
					"and sample size (runs >= 2), from make baseline over a REPEAT run", x.PassRate, x.Runs)
			}
			for _, g := range []Axis{{AxisServer, x.Server}, {AxisClient, x.Client}} {
				if strings.ContainsAny(g.Value, "*?[") {
					return nil, bad(g.Name, "%q: a flaky entry names one pair (its rate was measured for it), no glob", g.Value)
				}
			}
		default:
			return nil, bad("status", "%q: want fail, flaky or unsupported", x.Status)
		}
		if strings.TrimSpace(x.Reason) == "" {
			return nil, bad("reason", "missing (the finding that explains the cell, or the raw failure with untriaged: true)")
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
		if !axisMatch(g, c.Get(g.Name)) {
			return false
		}
	}
	return true
}

// axisMatch matches an axis value against an entry's glob: path.Match for the named axes, and
// for sub-case ids (paths such as http2/6.9.1/3 or a conformance suite's group/case names) a
// glob whose * also spans slashes, so http2/6.9/* or a group's prefix/* covers every case under it.
func axisMatch(g Axis, value string) bool {
	if g.Name == AxisSub {
		return globMatch(g.Value, value)
	}
	ok, _ := path.Match(g.Value, value)
	return ok
}

// match is the entry that covers r's cell and expects what r did (a failure with its signature,
// unsupported at run time, a flake), else the first covering entry, else nil.
func (b *Baseline) match(r Result) *Expectation {
	var first *Expectation
	for _, x := range b.Expected {
		if !x.covers(r.Cell) {
			continue
		}
		if first == nil {
			first = x
		}
		if x.expects(r) {
			return x
		}
	}
	return first
}

// expects reports whether the entry expects r as it happened.
func (x *Expectation) expects(r Result) bool {
	switch x.Status {
	case ExpectFlaky:
		return true
	case ExpectUnsupported:
		return r.Result == UnsupportedAtRunTime && sigMatch(x.Signature, Signature(r))
	}
	return r.Result == Failed && sigMatch(x.Signature, Signature(r))
}

// oneLine keeps a reason to one line of reasonable length.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 240 {
		s = s[:237] + "..."
	}
	return s
}
