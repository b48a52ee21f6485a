// Package grpcwebsuite runs the gRPC <-> gRPC-web conversion matrix: chain x server x client x
// case, each cell its own client -- [edge] -- sim -- [origin] -- server topology
// (compose/lab.yml, profile grpcweb), on the shared matrix runner. The direct chain (no
// converter) is the oracle: a case's outcome through a converter must equal its outcome direct.
package grpcwebsuite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/wirelab/wirelab/internal/observed"
)

// Case is one test case, as every container of its cell is told (TESTCASE). Its kind says who
// plays the ends and where the cell's traffic enters the chain (see Kinds).
type Case struct {
	Name        string `yaml:"name"`
	Abbr        string `yaml:"abbr"`
	Kind        string `yaml:"kind"` // default interop
	Testcase    string `yaml:"testcase"`
	Limit       string `yaml:"limit"`
	Requirement string `yaml:"requirement"`
	// Typical is how long a cell usually takes, for the plan's estimate (default 8s).
	Typical string `yaml:"typical"`
	// Down: the quirk side (the probe server, or the probe in the origin slot) runs but does not
	// listen, so the runner does not wait for it (an upstream that refuses connections).
	Down bool `yaml:"down"`
	// Observed: the verdict needs what the gRPC server behind the chain saw too (JudgeObserved).
	Observed bool `yaml:"observed"`

	limit, typ time.Duration
}

// typical is the plan's estimate of a cell's seconds.
func (c *Case) typical() float64 {
	if c.typ > 0 {
		return c.typ.Seconds()
	}
	return 8
}

// The case kinds: who plays the ends and which part of a chain the case exercises.
const (
	// KindInterop: an interop client and server (grpc-go) through every chain.
	KindInterop = "interop"
	// KindChain: the probe at both ends (its client checks, its server plays the upstream's
	// quirk) through every chain, direct included (the oracle).
	KindChain = "chain"
	// KindEdge: the probe client through the chain's edge to the probe playing a quirky gRPC-web
	// origin in the origin slot; once per distinct edge (image and flags).
	KindEdge = "edge"
	// KindOrigin: the probe client speaking gRPC-web over HTTP/1.1 straight to the chain's origin,
	// the probe server behind it; once per distinct origin.
	KindOrigin = "origin"
	// KindConformance: connectrpc's conformance runner (gRPC to the edge, gRPC-web to the origin)
	// against its reference server behind the chain.
	KindConformance = "conformance"
	// KindBench: the probe's benchmark client against an interop server, through every chain;
	// its numbers are the cell's measurements.
	KindBench = "bench"
)

var kinds = map[string]bool{KindInterop: true, KindChain: true, KindEdge: true, KindOrigin: true, KindConformance: true, KindBench: true}

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
			return nil, bad("testcase", "%q: want the client's test case (lowercase letters, digits and _)", c.Testcase)
		}
		if c.Kind == "" {
			c.Kind = KindInterop
		}
		if !kinds[c.Kind] {
			return nil, bad("kind", "%q: want interop, chain, edge, origin, conformance or bench", c.Kind)
		}
		if c.Down && c.Kind != KindChain && c.Kind != KindEdge {
			return nil, bad("down", "only a chain or edge case has a quirk side that can be down")
		}
		if c.Observed && (c.Kind != KindChain && c.Kind != KindOrigin || !observed.Judged(c.Testcase)) {
			return nil, bad("observed", "testcase %q (kind %s): only a chain or origin case whose server observes it (internal/observed) is judged on what the server saw", c.Testcase, c.Kind)
		}
		seen[c.Name] = true
		d, err := time.ParseDuration(c.Limit)
		if err != nil || d <= 0 {
			return nil, bad("limit", "%q: want a positive duration such as 20s", c.Limit)
		}
		c.limit = d
		if c.Typical != "" {
			if c.typ, err = time.ParseDuration(c.Typical); err != nil || c.typ <= 0 {
				return nil, bad("typical", "%q: want a positive duration such as 30s", c.Typical)
			}
		}
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

// ObservedFile is where the server of a cell leaves what it saw, relative to the cell's folder
// (compose/lab.yml mounts <cell>/server at the server's /logs; the probe writes
// /logs/observed.jsonl there).
var ObservedFile = filepath.Join("server", observed.File)

// JudgeObserved is an observed case's verdict from what its server saw: nil when it passed (and
// for a case that is not observed), else the reason, one line. Call it only once the cell is
// fenced: the server writes the calls still open and then a stop line when it is stopped, and a
// file without the stop line is incomplete evidence, an error.
func (c *Case) JudgeObserved(cellDir string) error {
	if !c.Observed {
		return nil
	}
	lines, err := observed.ReadFile(filepath.Join(cellDir, ObservedFile))
	if err != nil {
		return fmt.Errorf("what the server saw: %v", err)
	}
	if err := observed.Judge(c.Testcase, lines); err != nil {
		return fmt.Errorf("what the server saw: %v", err)
	}
	return nil
}
