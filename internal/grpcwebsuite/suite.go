package grpcwebsuite

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// AxisChain is the gRPC-web cells' own axis: the chain a call travels (direct: the oracle).
const AxisChain = "chain"

// Suite is the gRPC <-> gRPC-web conversion matrix: chain x server x client x case, each cell
// through the sim on one profile, every converter chain compared with the direct one.
type Suite struct {
	chains, cases, servers, clients, profile, chainsFile, casesFile *string
	extraChains                                                     *chainFlags
}

// Info implements suite.Suite.
func (*Suite) Info() suite.Info {
	return suite.Info{Name: "grpcweb", Make: "grpcweb", Roles: []string{"client", "server", "converter", "probe", "conformance"},
		Summary: "gRPC <-> gRPC-web conversion matrix: chain x server x client x case, each chain compared with direct"}
}

// Flags implements suite.Suite.
func (s *Suite) Flags(fs *flag.FlagSet, root string) {
	s.chains = fs.String("chains", "", "comma-separated chains (default: all in the chains file; direct, the oracle, always runs)")
	s.cases = fs.String("cases", "", "comma-separated cases (default: all in the cases file but the bench; --cases bench runs the benchmark)")
	s.servers = fs.String("servers", "", "comma-separated servers (default: every image with the grpcweb server role)")
	s.clients = fs.String("clients", "", "comma-separated clients (default: every image with the grpcweb client role)")
	s.profile = fs.String("profile", "ideal", "sim profile `reference` for every cell")
	s.chainsFile = fs.String("chains-file", defaultChains(root), "the chains `file`")
	s.casesFile = fs.String("cases-file", defaultCases(root), "the cases `file`")
	s.extraChains = &chainFlags{}
	fs.Var(s.extraChains, "chain", "add a chain: `NAME=EDGE,ORIGIN` (converter images, e.g. from --image NAME=REF:converter) (repeatable)")
}

func defaultChains(root string) string {
	return filepath.Join(root, "conformance", "grpcweb", "chains.yml")
}
func defaultCases(root string) string {
	return filepath.Join(root, "conformance", "grpcweb", "cases.yml")
}

// Load implements suite.Suite.
func (s *Suite) Load(in suite.Input) (suite.Matrix, error) {
	m := &Matrix{profile: *s.profile, getenv: in.Getenv, converters: map[string]string{}, images: map[string]Image{},
		chainsByName: map[string]*Chain{}, casesByName: map[string]*Case{}, ownData: *s.chainsFile == defaultChains(in.Root) &&
			*s.casesFile == defaultCases(in.Root) && len(*s.extraChains) == 0}
	var err error
	if m.allChains, err = LoadChains(*s.chainsFile); err != nil {
		return nil, err
	}
	for _, c := range *s.extraChains {
		if slices.ContainsFunc(m.allChains, func(x *Chain) bool { return x.Name == c.Name }) {
			return nil, suite.BadInput{Msg: fmt.Sprintf("--chain %s: a chain of that name is in %s", c.Name, *s.chainsFile)}
		}
		m.allChains = append(m.allChains, c)
	}
	if m.Chains, err = selectChains(m.allChains, *s.chains); err != nil {
		return nil, suite.BadInput{Msg: "--chains: " + err.Error()}
	}
	if m.allCases, err = LoadCases(*s.casesFile); err != nil {
		return nil, err
	}
	if m.Cases, err = matrix.Select(m.allCases, *s.cases, func(c *Case) string { return c.Name }, "case"); err != nil {
		return nil, suite.BadInput{Msg: "--cases: " + err.Error()}
	}
	if *s.cases == "" { // the benchmark wants a quiet machine: it runs when named (make grpcweb-bench)
		m.Cases = slices.DeleteFunc(m.Cases, func(c *Case) bool { return c.Kind == KindBench })
	}
	byName := func(i Image) string { return i.Name }
	if m.Servers, err = matrix.Select(Images(in.Manifests, "server"), *s.servers, byName, "server"); err != nil {
		return nil, suite.BadInput{Msg: "--servers: " + err.Error()}
	}
	if m.Clients, err = matrix.Select(Images(in.Manifests, "client"), *s.clients, byName, "client"); err != nil {
		return nil, suite.BadInput{Msg: "--clients: " + err.Error()}
	}
	if len(m.Servers) == 0 || len(m.Clients) == 0 {
		return nil, suite.BadInput{Msg: "no gRPC-web clients or servers to run (images with the grpcweb client/server roles)"}
	}
	m.Probes, m.Conformers = Images(in.Manifests, "probe"), Images(in.Manifests, "conformance")
	m.universe = Universe(m.allChains, m.allCases, in.Manifests)
	for _, c := range Images(in.Manifests, "converter") {
		m.converters[c.Name] = c.Ref
		m.images[c.Name] = c
	}
	for _, ch := range m.Chains {
		if !ch.Direct() {
			for _, conv := range []string{ch.Edge, ch.Origin} {
				if _, ok := m.converters[conv]; !ok && conv != "" && slices.Contains(*s.extraChains, ch) {
					return nil, suite.BadInput{Msg: fmt.Sprintf("--chain %s: %q is no converter image (manifest role grpcweb: converter, or --image %s=REF:converter)", ch.Name, conv, conv)}
				}
			}
		}
	}
	resolved, err := in.Profiles.Resolve(m.profile)
	if err != nil {
		return nil, suite.BadInput{Msg: fmt.Sprintf("--profile %s: %v", m.profile, err)}
	}
	link := resolved.Initial()
	m.rtt = link.ToClient.Delay + link.ToServer.Delay
	for _, f := range [][3]string{{"--chains-file", *s.chainsFile, defaultChains(in.Root)}, {"--cases-file", *s.casesFile, defaultCases(in.Root)}} {
		if f[1] != f[2] {
			m.rerunFlags += " " + f[0] + " " + f[1]
		}
	}
	for _, c := range *s.extraChains {
		m.rerunFlags += " --chain " + c.Name + "=" + c.Edge + "," + c.Origin
	}
	for _, x := range m.Chains {
		m.chainsByName[x.Name] = x
	}
	for _, x := range append(append(append(append([]Image{}, m.Servers...), m.Clients...), m.Probes...), m.Conformers...) {
		m.images[x.Name] = x
	}
	for _, x := range m.Cases {
		m.casesByName[x.Name] = x
	}
	return m, nil
}

// chainFlags collects --chain NAME=EDGE,ORIGIN.
type chainFlags []*Chain

func (c *chainFlags) String() string { return fmt.Sprint(len(*c)) }
func (c *chainFlags) Repeatable()    {}
func (c *chainFlags) Set(v string) error {
	name, convs, ok := strings.Cut(v, "=")
	edge, origin, ok2 := strings.Cut(convs, ",")
	if !ok || !ok2 || !chainName.MatchString(name) || name == DirectChain || edge == "" || origin == "" {
		return fmt.Errorf("%q: want NAME=EDGE,ORIGIN (a new chain name, its edge and origin converter images)", v)
	}
	*c = append(*c, &Chain{Name: name, Description: "given on the command line", Edge: edge, Origin: origin})
	return nil
}

// Matrix is a loaded selection of the gRPC-web suite: what one run covers.
type Matrix struct {
	Chains           []*Chain
	Servers, Clients []Image // interop servers and clients (roles server, client)
	Probes           []Image // conversion-case probes (role probe): client, server and quirk origin
	Conformers       []Image // connectrpc conformance runner + reference server (role conformance)
	Cases            []*Case

	allChains    []*Chain
	allCases     []*Case
	universe     matrix.Universe
	profile      string
	rtt          time.Duration // the profile's round trip: client time limits grow with it
	converters   map[string]string
	images       map[string]Image
	chainsByName map[string]*Chain
	casesByName  map[string]*Case
	getenv       func(string) string
	rerunFlags   string
	ownData      bool
}

// Describe implements suite.Matrix.
func (m *Matrix) Describe() string {
	return fmt.Sprintf("%d chains, %d cases, %d cells on %s", len(m.Chains), len(m.Cases), len(m.Cells()), m.profile)
}

// Universe implements suite.Matrix.
func (m *Matrix) Universe() matrix.Universe { return m.universe }

// OwnData implements suite.Matrix.
func (m *Matrix) OwnData() bool { return m.ownData }

// Images implements suite.Matrix: every image its cells start — the ends, the chains'
// converters, the sim — and tshark, which lists the cells' packets in the report make grpcweb
// ends with.
func (m *Matrix) Images() []string {
	set := map[string]bool{"sim": true, "tshark": true}
	for _, c := range m.Cells() {
		set[c.Server], set[c.Client] = true, true
		ch := m.chainsByName[c.Get(AxisChain)]
		for _, conv := range []string{ch.Edge, ch.Origin} {
			if conv != "" {
				set[conv] = true
			}
		}
	}
	var out []string
	for k := range set {
		if k == "sim" || k == "tshark" || m.images[k].Manifest {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Columns implements suite.Matrix.
func (m *Matrix) Columns() []matrix.Column { return Columns(m.Cases) }

// Columns are the cases as the terminal grid shows them.
func Columns(cases []*Case) []matrix.Column {
	out := make([]matrix.Column, len(cases))
	for i, c := range cases {
		out[i] = matrix.Column{Name: c.Name, Abbr: c.Abbr}
	}
	return out
}

// Before implements suite.Matrix.
func (m *Matrix) Before(context.Context, *suite.Run, []matrix.Cell) error { return nil }

// Reverdict implements suite.Reverdicter: the chains held to direct, as After does.
func (*Suite) Reverdict(results []matrix.Result) []matrix.Result { return CompareWithDirect(results) }

// After implements suite.Matrix: every converter chain's cell held to the direct chain's
// outcome, and the benchmark's table (bench.csv) when the run had bench cells.
func (m *Matrix) After(_ context.Context, r *suite.Run, results []matrix.Result) ([]matrix.Result, error) {
	results = CompareWithDirect(results)
	rows, err := BenchTable(results)
	if err != nil || len(rows) == 0 {
		return results, err
	}
	f, err := os.Create(filepath.Join(r.Run.Dir, "bench.csv"))
	if err != nil {
		return nil, err
	}
	if err := WriteBenchCSV(f, rows); err != nil {
		f.Close()
		return nil, err
	}
	return results, f.Close()
}

// Summary implements suite.Matrix.
func (m *Matrix) Summary(_ *suite.Run, results []matrix.Result) any {
	sum := Summarize(m, results, m.profile)
	return &sum
}

// PrintTable implements suite.Matrix: rows server@chain, columns the cases; the benchmark's
// ratios to direct.
func (m *Matrix) PrintTable(w io.Writer, r *suite.Run, results []matrix.Result) {
	var rows []string
	for _, c := range m.Cells() {
		if len(rows) == 0 || rows[len(rows)-1] != c.Slot() {
			rows = append(rows, c.Slot())
		}
	}
	matrix.PrintGrid(w, Columns(m.Cases), rows, results)
	if bench, err := BenchTable(results); err == nil && len(bench) > 0 {
		PrintBench(w, bench)
		fmt.Fprintf(w, "bench: %s\n", filepath.Join(r.Run.Dir, "bench.csv"))
	}
}

// selectChains narrows the chains to names; the direct chain stays, as every chain's oracle.
func selectChains(all []*Chain, names string) ([]*Chain, error) {
	picked, err := matrix.Select(all, names, func(c *Chain) string { return c.Name }, "chain")
	if err != nil || names == "" {
		return picked, err
	}
	for _, c := range picked {
		if c.Direct() {
			return picked, nil
		}
	}
	for _, c := range all {
		if c.Direct() {
			return append([]*Chain{c}, picked...), nil
		}
	}
	return picked, nil
}
