package images

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/wirelab/wirelab/internal/grpcwebsuite"
	"github.com/wirelab/wirelab/internal/h2suite"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/quictrace"
)

// composeImages reads compose/lab.yml: per suite, the default images of the services its cells
// start (${X_IMAGE:-default}); a service without a default takes a role player (client, server).
func composeImages(t *testing.T) map[string][]string {
	t.Helper()
	var lab struct {
		Services map[string]struct {
			Image    string   `yaml:"image"`
			Profiles []string `yaml:"profiles"`
		} `yaml:"services"`
	}
	data, err := os.ReadFile("../../compose/lab.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &lab); err != nil {
		t.Fatal(err)
	}
	// A compose profile belongs to the suite that switches it on: grpcweb's chains, and the
	// quic test case of the same name (asserted below against the cases file).
	profileSuite := map[string]string{"grpcweb": "grpcweb", "crosstraffic": "quic"}
	quicCases, err := quicinterop.LoadCases("../../conformance/quic/testcases.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(quicCases, func(c *quicinterop.Case) bool { return c.Name == "crosstraffic" }) {
		t.Fatal("conformance/quic/testcases.yml has no crosstraffic case: the profile's suite is wrong")
	}
	def := regexp.MustCompile(`^\$\{[A-Z_]+:-([^}]+)\}$`)
	out := map[string][]string{}
	for name, svc := range lab.Services {
		m := def.FindStringSubmatch(svc.Image)
		if m == nil {
			continue
		}
		suites := manifest.Suites()
		if len(svc.Profiles) > 0 {
			suites = nil
			for _, p := range svc.Profiles {
				s, ok := profileSuite[p]
				if !ok {
					t.Fatalf("compose/lab.yml: service %s has profile %q this test does not know", name, p)
				}
				suites = append(suites, s)
			}
		}
		for _, s := range suites {
			out[s] = append(out[s], m[1])
		}
	}
	return out
}

// expectedRefs is what each suite starts, read from the suites' own inputs rather than from
// used_by: compose's default images, tshark where the cells' traces are read (quic, h2) or the
// report `make grpcweb` ends with lists their packets, the compliance probe's partner, the h2
// matrix file's client programs, the grpcweb chains' converters, and every role player.
func expectedRefs(t *testing.T, ms []*manifest.Manifest) map[string][]string {
	t.Helper()
	want := composeImages(t)
	for _, s := range []string{"quic", "h2", "grpcweb"} {
		want[s] = append(want[s], quictrace.Image)
	}
	want["quic"] = append(want["quic"], "wirelab/endpoint:latest") // quicinterop's complianceProbes
	sections, err := h2suite.LoadSections("../../conformance/h2/matrix.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range sections {
		want["h2"] = append(want["h2"], "wirelab/"+sec.Client+":latest") // as h2suite's cell does
	}
	chains, err := grpcwebsuite.LoadChains("../../conformance/grpcweb/chains.yml")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*manifest.Manifest{}
	for _, m := range ms {
		byName[m.Name] = m
	}
	for _, ch := range chains {
		for _, conv := range []string{ch.Edge, ch.Origin} {
			if conv == "" {
				continue
			}
			m, ok := byName[conv]
			if !ok {
				t.Fatalf("chain %s: converter %q has no manifest", ch.Name, conv)
			}
			want["grpcweb"] = append(want["grpcweb"], m.Ref())
		}
	}
	for _, m := range ms {
		for suite := range m.Roles {
			if suite != "tool" {
				want[suite] = append(want[suite], m.Ref())
			}
		}
	}
	return want
}

func loadRepo(t *testing.T) []*manifest.Manifest {
	t.Helper()
	ms, err := manifest.LoadDir("../../images")
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func names(ms []*manifest.Manifest) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

// Each suite's set is exactly what its cells start plus what those build FROM, in an order
// that builds every image after its dependencies.
func TestNeededIsWhatTheSuiteStarts(t *testing.T) {
	ms := loadRepo(t)
	deps, err := manifest.Deps(ms)
	if err != nil {
		t.Fatal(err)
	}
	byRef := map[string]*manifest.Manifest{}
	for _, m := range ms {
		byRef[m.Ref()] = m
	}
	for suite, refs := range expectedRefs(t, ms) {
		want := map[string]bool{}
		var add func(m *manifest.Manifest)
		add = func(m *manifest.Manifest) {
			want[m.Name] = true
			for _, d := range deps[m.Name] {
				add(d)
			}
		}
		for _, ref := range refs {
			m, ok := byRef[ref]
			if !ok {
				t.Fatalf("%s starts %s, which no manifest builds", suite, ref)
			}
			add(m)
		}
		got, err := Needed(ms, suite, nil)
		if err != nil {
			t.Fatal(err)
		}
		built := map[string]bool{}
		for _, m := range got {
			for _, d := range deps[m.Name] {
				if !built[d.Name] {
					t.Errorf("%s: %s comes before %s, which it builds FROM", suite, m.Name, d.Name)
				}
			}
			built[m.Name] = true
		}
		var wantNames []string
		for n := range want {
			wantNames = append(wantNames, n)
		}
		sort.Strings(wantNames)
		gotNames := names(got)
		sort.Strings(gotNames)
		if !slices.Equal(gotNames, wantNames) {
			t.Errorf("%s: Needed = %v\nwant %v", suite, gotNames, wantNames)
		}
		t.Logf("%s: %d of %d images: %s", suite, len(got), len(ms), strings.Join(names(got), " "))
	}
}

// The QUIC matrix builds none of the other suites' images.
func TestNeededQuicLeavesOthersOut(t *testing.T) {
	got, err := Needed(loadRepo(t), "quic", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{"apache2", "connectconformance", "fuzz", "probe", "h2spec", "grpc-go", "lighttpd"} {
		if slices.Contains(names(got), other) {
			t.Errorf("quic set holds %s: %v", other, names(got))
		}
	}
}

func TestNeededNarrowsRolePlayers(t *testing.T) {
	ms := loadRepo(t)
	got, err := Needed(ms, "quic", Selection{"server": {"nginx"}, "client": {"curl"}})
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(names(got), " "); g != "base endpoint curl nginx sim tshark" {
		t.Fatalf("SERVERS=nginx CLIENTS=curl: %s", g)
	}
	// Only the servers narrowed: every client stays, quic-go as one (it is also a server).
	got, err = Needed(ms, "quic", Selection{"server": {"nginx"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := names(got); !slices.Contains(n, "quic-go") || !slices.Contains(n, "curl") || slices.Contains(n, "haproxy") {
		t.Fatalf("SERVERS=nginx: %v", n)
	}
	// h2: narrowing the servers keeps the client programs.
	got, err = Needed(ms, "h2", Selection{"server": {"caddy"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := names(got); !slices.Contains(n, "h2spec") || !slices.Contains(n, "h2probe") || slices.Contains(n, "nginx") {
		t.Fatalf("h2 SERVERS=caddy: %v", n)
	}
}

func TestNeededRejectsBadInput(t *testing.T) {
	ms := loadRepo(t)
	for _, c := range []struct {
		suite string
		sel   Selection
		want  string
	}{
		{"tool", nil, `unknown suite "tool"`},
		{"http9", nil, `unknown suite "http9"`},
		{"quic", Selection{"server": {"apache2"}}, `unknown quic server "apache2"`},
		{"quic", Selection{"converter": {"vanguard"}}, "no image plays converter in the quic suite"},
	} {
		if _, err := Needed(ms, c.suite, c.sel); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Needed(%s, %v): %v, want %q", c.suite, c.sel, err, c.want)
		}
	}
	// No role player at all is an error, not "build everything" (BuildOrder's empty list).
	tool := &manifest.Manifest{Name: "sim", Roles: map[string][]string{"tool": {"sim"}}, UsedBy: []string{"quic"}}
	if _, err := Needed([]*manifest.Manifest{tool}, "quic", nil); err == nil {
		t.Error("a suite without role players accepted")
	}
}
