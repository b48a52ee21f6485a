// Package grpcwebsuite runs the gRPC <-> gRPC-web conversion matrix: chain x server x client x
// case, each cell its own client -- [edge] -- sim -- [origin] -- server topology
// (compose/lab.yml, profile grpcweb), on the shared matrix runner. The direct chain (no
// converter) is the oracle: a case's outcome through a converter must equal its outcome direct.
package grpcwebsuite

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"time"

	"gopkg.in/yaml.v3"
)

// Case is one gRPC interop test case, as the client is told (TESTCASE).
type Case struct {
	Name        string `yaml:"name"`
	Abbr        string `yaml:"abbr"`
	Testcase    string `yaml:"testcase"`
	Limit       string `yaml:"limit"`
	Requirement string `yaml:"requirement"`

	limit time.Duration
}

var caseName = regexp.MustCompile(`^[a-z0-9_]+$`)

// LoadCases reads conformance/grpcweb/cases.yml; a bad entry is an error naming the file, the
// entry and the field.
func LoadCases(path string) ([]*Case, error) {
	var doc struct {
		Cases []*Case `yaml:"cases"`
	}
	if err := decodeStrict(path, &doc); err != nil {
		return nil, err
	}
	if len(doc.Cases) == 0 {
		return nil, fmt.Errorf("%s: cases: empty", path)
	}
	seen := map[string]bool{}
	for i, c := range doc.Cases {
		bad := func(field, f string, a ...any) error {
			return fmt.Errorf("%s: cases[%d].%s: %s", path, i, field, fmt.Sprintf(f, a...))
		}
		switch {
		case !caseName.MatchString(c.Name):
			return nil, bad("name", "%q: want lowercase letters, digits and _", c.Name)
		case seen[c.Name]:
			return nil, bad("name", "%q twice", c.Name)
		case c.Abbr == "":
			return nil, bad("abbr", "missing")
		case !caseName.MatchString(c.Testcase):
			return nil, bad("testcase", "%q: want the interop client's --test_case", c.Testcase)
		}
		seen[c.Name] = true
		d, err := time.ParseDuration(c.Limit)
		if err != nil || d <= 0 {
			return nil, bad("limit", "%q: want a positive duration such as 20s", c.Limit)
		}
		c.limit = d
	}
	return doc.Cases, nil
}

// decodeStrict decodes a YAML file, refusing unknown fields (a typo must not be ignored).
func decodeStrict(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
