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
)

// Section is one column of the h2 matrix: a client program run against a server.
type Section struct {
	Name        string `yaml:"name"`
	Abbr        string `yaml:"abbr"`
	Requirement string `yaml:"requirement"`
	Description string `yaml:"description"`
	Client      string `yaml:"client"`   // the client image's name: h2spec or h2check
	Testcase    string `yaml:"testcase"` // TESTCASE the client is told
	Params      string `yaml:"params"`   // CLIENT_PARAMS: h2spec's spec selection; h2check's case
	Timeout     string `yaml:"timeout"`  // the client's time limit on an ideal link; scaled by RTT

	Limit time.Duration `yaml:"-"`
}

// Kinds of client, by how their verdict is read.
const (
	ClientH2spec  = "h2spec"
	ClientH2check = "h2check"
)

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
		case s.Client != ClientH2spec && s.Client != ClientH2check:
			return nil, bad("client", "%q: want h2spec or h2check", s.Client)
		case s.Testcase == "":
			return nil, bad("testcase", "missing")
		}
		seen[s.Name] = true
		if s.Limit, err = time.ParseDuration(s.Timeout); err != nil || s.Limit <= 0 {
			return nil, bad("timeout", "%q: want a positive duration such as 60s", s.Timeout)
		}
	}
	return doc.Sections, nil
}
