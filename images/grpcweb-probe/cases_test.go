package main

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Every chain case passes with the client straight at the probe server: the plays and checks
// agree with each other and with real gRPC (the direct chain is the suite's oracle).
func TestChainCasesPassDirect(t *testing.T) {
	for _, name := range casesOf(kindChain) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			wantExit(t, name, playPart(t, roleServer, name), 0)
		})
	}
}

// Every chain case passes through wirelab's converters, binary and grpc-web-text between them.
func TestChainCasesPassThroughConverters(t *testing.T) {
	for _, text := range []bool{false, true} {
		for _, name := range casesOf(kindChain) {
			t.Run(mode(text)+"/"+name, func(t *testing.T) {
				t.Parallel()
				wantExit(t, name, edge(t, origin(t, playPart(t, roleServer, name)), text), 0)
			})
		}
	}
}

// Every edge case passes through wirelab's edge converter in front of the probe origin; the
// text case is not applicable behind a binary edge.
func TestEdgeCasesPassThroughConverter(t *testing.T) {
	for _, text := range []bool{false, true} {
		for _, name := range casesOf(kindEdge) {
			t.Run(mode(text)+"/"+name, func(t *testing.T) {
				t.Parallel()
				want := edgeExit(name, text)
				out := wantExit(t, name, edge(t, playPart(t, roleOrigin, name), text), want)
				if want == 127 && !strings.HasPrefix(lastLine(out), "NOT APPLICABLE: ") {
					t.Errorf("last line %q, want NOT APPLICABLE: ...", lastLine(out))
				}
			})
		}
	}
}

// Every origin case passes with the probe speaking gRPC-web to wirelab's origin converter.
func TestOriginCasesPassThroughConverter(t *testing.T) {
	for _, name := range casesOf(kindOrigin) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			wantExit(t, name, origin(t, playPart(t, roleServer, name)), 0)
		})
	}
}

func mode(text bool) string {
	if text {
		return "text"
	}
	return "binary"
}

// The suite's case list (conformance/grpcweb/cases.yml) and the probe agree on every probe
// case's name, kind, whether its far end is down and whether what its server saw is judged.
func TestCasesMatchTheSuite(t *testing.T) {
	b, err := os.ReadFile("../../conformance/grpcweb/cases.yml")
	if err != nil {
		t.Fatal(err) // the package is part of the module: the suite's file is always beside it
	}
	var suite struct {
		Cases []struct {
			Kind, Testcase string
			Down, Observed bool
		}
	}
	if err := yaml.Unmarshal(b, &suite); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range suite.Cases {
		switch k := kind(c.Kind); k {
		case kindChain, kindEdge, kindOrigin:
			pc, ok := cases[c.Testcase]
			if !ok || pc.kind != k || pc.down != c.Down || pc.observed != c.Observed {
				t.Errorf("cases.yml: %s (kind %s, down %v, observed %v); the probe has kind %q, down %v, observed %v",
					c.Testcase, k, c.Down, c.Observed, pc.kind, pc.down, pc.observed)
			}
			seen[c.Testcase] = true
		case "bench":
			if c.Testcase != benchCase {
				t.Errorf("cases.yml: bench testcase %q, the probe's is %q", c.Testcase, benchCase)
			}
		}
	}
	for name := range cases {
		if !seen[name] {
			t.Errorf("probe case %s is not in cases.yml", name)
		}
	}
}
