package suites

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"flag"

	"github.com/wirelab/wirelab/internal/grpcwebsuite"
	"github.com/wirelab/wirelab/internal/h2suite"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/profile"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/tshark"
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
		var suites []string
		for _, x := range All() {
			suites = append(suites, x.Info().Name)
		}
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
	for _, s := range []string{"quic", "h2", "grpcweb", "webtransport", "fuzz-live"} { // fuzz-live: a replay reads its trace
		want[s] = append(want[s], tshark.Image)
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

// needed is what `wirelab <suite> --build-images` builds for a selection (the suite's flags):
// the images its Matrix says its cells start, and what those build FROM, in build order.
func needed(t *testing.T, ms []*manifest.Manifest, name string, args ...string) []*manifest.Manifest {
	t.Helper()
	s := suite.Registry(All).Find(name)
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	s.Flags(fs, "../..")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	profiles, err := profile.LoadFile("../../images/sim/profiles.yml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Load(suite.Input{Root: "../..", Manifests: ms, Profiles: profiles, Repeat: 1, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	order, err := manifest.BuildOrder(ms, m.Images())
	if err != nil {
		t.Fatal(err)
	}
	return order
}

// Each suite's set is exactly what its cells start plus what those build FROM, in an order
// that builds every image after its dependencies: the suites' own Images, held to what compose,
// the case files and the manifests say.
func TestSuiteImagesAreWhatTheCellsStart(t *testing.T) {
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
		got := needed(t, ms, suite)
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
			t.Errorf("%s: the suite's images %v\nwant %v", suite, gotNames, wantNames)
		}
		t.Logf("%s: %d of %d images: %s", suite, len(got), len(ms), strings.Join(names(got), " "))
	}
}

// The QUIC matrix builds none of the other suites' images.
func TestQuicImagesLeaveOthersOut(t *testing.T) {
	got := needed(t, loadRepo(t), "quic")
	for _, other := range []string{"apache2", "connectconformance", "fuzz", "probe", "h2spec", "grpc-go", "lighttpd"} {
		if slices.Contains(names(got), other) {
			t.Errorf("quic set holds %s: %v", other, names(got))
		}
	}
}

// The selection narrows the images: make interop SERVERS=nginx CLIENTS=curl builds six.
func TestSuiteImagesFollowTheSelection(t *testing.T) {
	ms := loadRepo(t)
	if g := strings.Join(names(needed(t, ms, "quic", "--servers", "nginx", "--clients", "curl")), " "); g != "base endpoint curl nginx sim tshark" {
		t.Fatalf("SERVERS=nginx CLIENTS=curl: %s", g)
	}
	if n := names(needed(t, ms, "quic", "--servers", "nginx")); !slices.Contains(n, "quic-go") || !slices.Contains(n, "curl") || slices.Contains(n, "haproxy") {
		t.Fatalf("SERVERS=nginx: %v", n)
	}
	if n := names(needed(t, ms, "h2", "--servers", "caddy")); !slices.Contains(n, "h2spec") || !slices.Contains(n, "h2probe") || slices.Contains(n, "nginx") {
		t.Fatalf("h2 SERVERS=caddy: %v", n)
	}
	if n := names(needed(t, ms, "h2", "--servers", "caddy", "--cases", "h2spec")); slices.Contains(n, "h2probe") {
		t.Fatalf("h2 CASES=h2spec starts no probe: %v", n)
	}
	if n := names(needed(t, ms, "grpcweb", "--chains", "direct", "--cases", "empty_unary")); slices.Contains(n, "vanguard") || slices.Contains(n, "grpcweb-converter") {
		t.Fatalf("grpcweb direct only: %v", n)
	}
}
