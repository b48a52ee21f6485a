// Package quicinterop runs the QUIC/HTTP-3 interop matrix: test cases from conformance/quic, cells
// of client x server x case through the sim, verdicts from downloads and decrypted traces.
package quicinterop

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/wirelab/wirelab/internal/quiccheck"
)

// Case is one test case of conformance/quic/testcases.yml.
type Case struct {
	Name           string   `yaml:"name"`
	Abbr           string   `yaml:"abbr"`
	Requirement    string   `yaml:"requirement"`
	Description    string   `yaml:"description"`
	Testcase       string   `yaml:"testcase"`        // TESTCASE for both endpoints
	ServerTestcase string   `yaml:"server_testcase"` // when the server is told something else
	Files          []string `yaml:"files"`
	Host           string   `yaml:"host"`
	Profile        string   `yaml:"profile"`
	Timeout        string   `yaml:"timeout"`
	CertChain      int      `yaml:"cert_chain"`
	Checks         []string `yaml:"checks"`
	// Impaired names what the case's profile does to the packets (loss, corruption, reordering,
	// blackhole, rebinding, ...): the cell is judged only when the sim's final stats show it did.
	Impaired string `yaml:"impaired"`
	// Measurements (upstream's goodput, crosstraffic): the case runs Repetitions times, each on
	// a fresh topology, and reports the mean and spread of Measure.
	Repetitions  int    `yaml:"repetitions"`
	Measure      string `yaml:"measure"`       // "goodput": kbit/s from the server-side trace
	CrossTraffic bool   `yaml:"cross_traffic"` // a TCP cubic iperf3 flow shares the sim meanwhile
	// TypicalSeconds is a cell's usual wall time (a measurement's with all its repetitions), for
	// the plan's estimate when no earlier run on this machine timed the case; 0: not given.
	TypicalSeconds float64 `yaml:"typical_seconds"`

	FileSizes []int64       `yaml:"-"`
	Limit     time.Duration `yaml:"-"`
	CheckList []Check       `yaml:"-"`
}

// IsMeasurement reports whether the case yields a number (result.json "measurements").
func (c *Case) IsMeasurement() bool { return c.Measure != "" }

// Check is a parsed check name with its optional comparison ("handshakes=1", "client-hellos>=2").
type Check struct {
	Name string
	Op   string // "", "=", ">=", "<=", ">"
	Arg  int
}

func (c Check) String() string {
	if c.Op == "" {
		return c.Name
	}
	return fmt.Sprintf("%s%s%d", c.Name, c.Op, c.Arg)
}

// knownCheck reports whether the runner can evaluate a check: "files" here, every other name
// on the trace (the quiccheck catalog). None takes a number yet; the grammar allows "name>=N".
func knownCheck(name string) (wantsArg, known bool) {
	if name == "files" {
		return false, true
	}
	_, known = quiccheck.Lookup(name)
	return false, known
}

var (
	checkRE = regexp.MustCompile(`^([a-z0-9-]+)(?:(=|>=|<=|>)(\d+))?$`)
	sizeRE  = regexp.MustCompile(`^(?:(\d+)x)?(\d+)(KiB|MiB|B)?$`)
	nameRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// CaseError is a problem in the test case file: one line naming file and field.
type CaseError struct{ File, Field, Msg string }

func (e *CaseError) Error() string { return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Msg) }

// LoadCases reads and validates the test case file.
func LoadCases(path string) ([]*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCases(path, data)
}

// ParseCases decodes and validates test cases (path names them in errors).
func ParseCases(path string, data []byte) ([]*Case, error) {
	var doc struct {
		Cases []*Case `yaml:"cases"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, &CaseError{File: path, Field: "cases", Msg: strings.ReplaceAll(strings.TrimPrefix(err.Error(), "yaml: "), "\n", "; ")}
	}
	if len(doc.Cases) == 0 {
		return nil, &CaseError{File: path, Field: "cases", Msg: "no test cases"}
	}
	names, abbrs := map[string]bool{}, map[string]bool{}
	for i, c := range doc.Cases {
		bad := func(field, format string, a ...any) error {
			return &CaseError{File: path, Field: fmt.Sprintf("cases[%d].%s", i, field), Msg: fmt.Sprintf(format, a...)}
		}
		switch {
		case !nameRE.MatchString(c.Name):
			return nil, bad("name", "%q is not a test case name", c.Name)
		case names[c.Name]:
			return nil, bad("name", "%q appears twice", c.Name)
		case c.Abbr == "" || abbrs[c.Abbr]:
			return nil, bad("abbr", "%q is missing or appears twice", c.Abbr)
		case c.Testcase == "":
			return nil, bad("testcase", "missing (the TESTCASE the endpoints get)")
		case c.Host != "" && c.Host != "server4" && c.Host != "server6" && c.Host != "server46":
			return nil, bad("host", "%q: want server4, server6 or server46", c.Host)
		case len(c.Checks) == 0:
			return nil, bad("checks", "no checks: a case that cannot fail is not a test")
		case c.CertChain == 1 || c.CertChain < 0 || c.CertChain > 20:
			return nil, bad("cert_chain", "%d: want 2..20 certificates (0: the run's own 2)", c.CertChain)
		case c.Measure != "" && c.Measure != "goodput":
			return nil, bad("measure", "%q: the only measurement is goodput", c.Measure)
		case c.Repetitions < 0 || c.Repetitions > 20 || (c.Repetitions > 1 && c.Measure == ""):
			return nil, bad("repetitions", "%d: want 1..20, and only for a measurement", c.Repetitions)
		case c.CrossTraffic && c.Measure == "":
			return nil, bad("cross_traffic", "only for a measurement (what would the flow change?)")
		case c.Impaired != "" && impairments[c.Impaired] == nil:
			return nil, bad("impaired", "%q: want one of %s", c.Impaired, impairmentNames())
		case !(c.TypicalSeconds >= 0 && c.TypicalSeconds <= 86400): // NaN too
			return nil, bad("typical_seconds", "%g: want 0..86400 seconds (0: unknown)", c.TypicalSeconds)
		}
		if c.Repetitions == 0 {
			c.Repetitions = 1
		}
		names[c.Name], abbrs[c.Abbr] = true, true
		if c.Host == "" {
			c.Host = "server4"
		}
		if c.Profile == "" {
			c.Profile = "simple-p2p"
		}
		c.Limit = 60 * time.Second
		if c.Timeout != "" {
			d, err := time.ParseDuration(c.Timeout)
			if err != nil || d <= 0 {
				return nil, bad("timeout", "%q is not a positive duration", c.Timeout)
			}
			c.Limit = d
		}
		for j, f := range c.Files {
			sizes, err := ParseFileSizes(f)
			if err != nil {
				return nil, bad(fmt.Sprintf("files[%d]", j), "%v", err)
			}
			c.FileSizes = append(c.FileSizes, sizes...)
		}
		for j, s := range c.Checks {
			chk, err := parseCheck(s)
			if err != nil {
				return nil, bad(fmt.Sprintf("checks[%d]", j), "%v", err)
			}
			c.CheckList = append(c.CheckList, chk)
		}
	}
	return doc.Cases, nil
}

// ParseFileSizes reads a files entry: SIZE or COUNTxSIZE with B, KiB or MiB.
func ParseFileSizes(s string) ([]int64, error) {
	m := sizeRE.FindStringSubmatch(s)
	if m == nil {
		return nil, fmt.Errorf("%q: want SIZE or COUNTxSIZE with B, KiB or MiB", s)
	}
	count := int64(1)
	if m[1] != "" {
		count, _ = strconv.ParseInt(m[1], 10, 64)
	}
	size, _ := strconv.ParseInt(m[2], 10, 64)
	size *= map[string]int64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20}[m[3]]
	if count < 1 || count > 10000 || size < 1 || size > 1<<30 {
		return nil, fmt.Errorf("%q: count 1..10000 and size 1 B..1 GiB", s)
	}
	out := make([]int64, count)
	for i := range out {
		out[i] = size
	}
	return out, nil
}

func parseCheck(s string) (Check, error) {
	m := checkRE.FindStringSubmatch(s)
	if m == nil {
		return Check{}, fmt.Errorf("%q is not a check", s)
	}
	wantsArg, known := knownCheck(m[1])
	switch {
	case !known:
		return Check{}, fmt.Errorf("unknown check %q", m[1])
	case wantsArg && m[2] == "":
		return Check{}, fmt.Errorf("%q needs a comparison, like %s=1", s, m[1])
	case !wantsArg && m[2] != "":
		return Check{}, fmt.Errorf("%q takes no number", m[1])
	}
	n, _ := strconv.Atoi(m[3])
	return Check{Name: m[1], Op: m[2], Arg: n}, nil
}

// Holds compares a measured count with the check's comparison.
func (c Check) Holds(v int) bool {
	switch c.Op {
	case "=":
		return v == c.Arg
	case ">=":
		return v >= c.Arg
	case "<=":
		return v <= c.Arg
	case ">":
		return v > c.Arg
	}
	return true
}

// DecodeStrict decodes a YAML data file into out, refusing fields out does not have; a problem
// is one line naming the file and field (the document's top-level key the caller names).
func DecodeStrict(path string, data []byte, field string, out any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(out); err != nil && !errors.Is(err, io.EOF) {
		return &CaseError{File: path, Field: field, Msg: strings.ReplaceAll(strings.TrimPrefix(err.Error(), "yaml: "), "\n", "; ")}
	}
	return nil
}
