// Package h2suite runs the HTTP/2 conformance matrix: every server with the h2 role against
// each section (h2spec, and each of wirelab's own cases in conformance/h2 run by h2check),
// each cell its own client -- sim -- server topology, on the shared matrix runner.
package h2suite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/wirelab/wirelab/conformance/h2"
	"github.com/wirelab/wirelab/conformance/h2/probe"
)

// Section is one column of the h2 matrix: a client program run against a server.
type Section struct {
	Name        string `yaml:"name"`
	Abbr        string `yaml:"abbr"`
	Requirement string `yaml:"requirement"`
	Description string `yaml:"description"`
	Client      string `yaml:"client"`   // the client image's name: h2spec, h2check, h2upload or h2probe
	Testcase    string `yaml:"testcase"` // TESTCASE the client is told
	Params      string `yaml:"params"`   // CLIENT_PARAMS: h2spec's spec selection; h2check's case
	Timeout     string `yaml:"timeout"`  // the client's time limit on an ideal link; scaled by RTT
	Profile     string `yaml:"profile"`  // the sim profile of this section's cells (upload: its BDP); empty: the run's
	Include     string `yaml:"include"`  // own-cases / probes: wirelab's own cases or robustness probes go here
	BDP         string `yaml:"bdp"`      // upload sections: high or low; h2 below 0.8x HTTP/1.1 at high BDP is flagged
	// Typical is a cell's usual wall time at the default -j, for the plan's estimate when no
	// earlier run timed it (an include entry's applies to each section it adds); default 10s.
	Typical string `yaml:"typical"`

	Limit          time.Duration `yaml:"-"`
	TypicalSeconds float64       `yaml:"-"`
}

// defaultTypical is a section's typical wall time when the matrix file gives none.
const defaultTypical = 10 * time.Second

// Kinds of client, by how their verdict is read.
const (
	ClientH2spec   = "h2spec"   // h2spec's JUnit report
	ClientH2check  = "h2check"  // wirelab's own flow-control cases: report.json
	ClientH2upload = "h2upload" // upload goodput over h2 or HTTP/1.1: upload.json
	ClientH2probe  = "h2probe"  // robustness probes: report.json, plus the server's memory
)

var clients = map[string]bool{ClientH2spec: true, ClientH2check: true, ClientH2upload: true, ClientH2probe: true}

// h2specSpec is one of h2spec's positional selections: generic, http2 or hpack, then section
// numbers and optionally a case number ("http2/6.9", "http2/6.9.1/2").
var h2specSpec = regexp.MustCompile(`^(generic|http2|hpack)(/[0-9]+(\.[0-9]+)*(/[0-9]+)?)?$`)

// NarrowH2spec makes the h2spec sections run only specs (space- or comma-separated); empty
// leaves them whole. A selection h2spec would not understand is an error.
func NarrowH2spec(sections []*Section, specs string) error {
	if specs == "" {
		return nil
	}
	list := strings.Fields(strings.ReplaceAll(specs, ",", " "))
	for _, sp := range list {
		if !h2specSpec.MatchString(sp) {
			return fmt.Errorf("%q: want generic, http2 or hpack, then /<section>[/<case>] such as http2/6.9", sp)
		}
	}
	for _, s := range sections {
		if s.Client == ClientH2spec {
			s.Params = strings.Join(list, " ")
		}
	}
	return nil
}

// LoadSections reads the matrix file (conformance/h2/matrix.yml). A bad entry is an error
// naming the file, the entry and the field.
func LoadSections(path string) ([]*Section, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Sections []*Section `yaml:"sections"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(doc.Sections) == 0 {
		return nil, fmt.Errorf("%s: sections: none", path)
	}
	if doc.Sections, err = expandOwnCases(path, doc.Sections); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, s := range doc.Sections {
		bad := func(field, format string, a ...any) error {
			return fmt.Errorf("%s: sections[%d] (%s): %s: %s", path, i, s.Name, field, fmt.Sprintf(format, a...))
		}
		switch {
		case s.Name == "":
			return nil, bad("name", "missing")
		case seen[s.Name]:
			return nil, bad("name", "duplicate")
		case s.Abbr == "":
			return nil, bad("abbr", "missing")
		case s.Requirement == "":
			return nil, bad("requirement", "missing: name the RFC section it verifies")
		case !clients[s.Client]:
			return nil, bad("client", "%q: want h2spec, h2check, h2upload or h2probe", s.Client)
		case s.Testcase == "":
			return nil, bad("testcase", "missing")
		}
		seen[s.Name] = true
		if s.Limit, err = time.ParseDuration(s.Timeout); err != nil || s.Limit <= 0 {
			return nil, bad("timeout", "%q: want a positive duration such as 60s", s.Timeout)
		}
		typical := defaultTypical
		if s.Typical != "" {
			if typical, err = time.ParseDuration(s.Typical); err != nil || typical <= 0 {
				return nil, bad("typical", "%q: want a positive duration such as 12s", s.Typical)
			}
		}
		s.TypicalSeconds = typical.Seconds()
	}
	return doc.Sections, nil
}

// Profiles are the sim profiles the sections name for themselves.
func Profiles(sections []*Section) []string {
	var out []string
	for _, s := range sections {
		if s.Profile != "" {
			out = append(out, s.Profile)
		}
	}
	return out
}

// ownCasesMargin is what an own case's cell adds to the case's time limit: containers starting,
// the client waiting for the sim and the server.
const ownCasesMargin = 30 * time.Second

// expandOwnCases replaces an `include: own-cases` entry with one h2check section per case of
// conformance/h2/cases.yml (abbreviated F1, F2, ...), and `include: probes` with one h2probe
// section per probe of conformance/h2/probe (P1, P2, ...), so each is listed in one place.
func expandOwnCases(path string, in []*Section) ([]*Section, error) {
	var out []*Section
	for i, s := range in {
		switch s.Include {
		case "":
			out = append(out, s)
			continue
		case "probes":
			for _, p := range probeSections() {
				p.Typical = s.Typical
				out = append(out, p)
			}
			continue
		case "own-cases":
		default:
			return nil, fmt.Errorf("%s: sections[%d]: include: %q: want own-cases or probes", path, i, s.Include)
		}
		cases, err := h2.Cases()
		if err != nil {
			return nil, err
		}
		for n, c := range cases {
			out = append(out, &Section{Name: c.Name, Abbr: fmt.Sprintf("F%d", n+1), Requirement: c.Requirement,
				Description: c.Description, Client: ClientH2check, Testcase: "h2", Params: "-cases " + c.Name,
				Timeout: (c.Timeout + ownCasesMargin).String(), Typical: s.Typical})
		}
	}
	return out, nil
}

// UploadProto is an upload section's protocol (its -proto parameter: h1 or h2), "" for others.
func (s *Section) UploadProto() string {
	if s.Client != ClientH2upload {
		return ""
	}
	f := strings.Fields(s.Params)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "-proto" {
			return f[i+1]
		}
	}
	return "h2" // h2upload's default
}

// ResizeUploads sets the upload sections' body size and repetitions (0 keeps the matrix
// file's): a smoke run uploads less.
func ResizeUploads(sections []*Section, size int64, reps int) error {
	if size < 0 || reps < 0 {
		return fmt.Errorf("size %d, repetitions %d: want positive numbers", size, reps)
	}
	for _, s := range sections {
		if s.Client != ClientH2upload {
			continue
		}
		f := strings.Fields(s.Params)
		for i := 0; i+1 < len(f); i++ {
			switch {
			case f[i] == "-size" && size > 0:
				f[i+1] = fmt.Sprint(size)
			case f[i] == "-reps" && reps > 0:
				f[i+1] = fmt.Sprint(reps)
			}
		}
		s.Params = strings.Join(f, " ")
	}
	return nil
}

// probeLimit is a probe cell's client time limit: the probe's own bound (10 s of flood, a
// grace) plus the well-behaved client's baseline and the containers starting.
const probeLimit = 90 * time.Second

func probeSections() []*Section {
	var out []*Section
	for n, p := range probe.All() {
		out = append(out, &Section{Name: p.Name, Abbr: fmt.Sprintf("P%d", n+1), Requirement: p.CVE + " (HTTP/2 " + p.Name + ")",
			Description: "bounded " + p.Name + " on one connection while a well-behaved client keeps requesting; the server must cut it, keep serving, and stay within its memory bound",
			Client:      ClientH2probe, Testcase: "probe", Params: "-probes " + p.Name, Timeout: probeLimit.String()})
	}
	return out
}
