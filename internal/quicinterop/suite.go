package quicinterop

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/tshark"
)

// Suite is the QUIC/HTTP-3 interop matrix: client x server x test case through the sim,
// verdicts from the downloads and the decrypted server-side trace.
type Suite struct {
	clients, servers, tests, profile, casesFile *string
}

// Info implements suite.Suite.
func (*Suite) Info() suite.Info {
	// Jobs: a QUIC cell spends most of its wall time waiting (engine container starts, the
	// sim's delays, timeouts), so 4 cells keep a 2-core machine busy without changing verdicts
	// (docs/results/2026-11-28-suite-machine.md says how that was measured).
	return suite.Info{Name: "quic", Make: "interop", Roles: []string{"client", "server"}, ALPN: []string{"hq-interop", "h3"}, Details: "goodput ", ClientRows: true, Jobs: 4,
		Summary: "QUIC/HTTP-3 interop matrix: client x server x test case through the sim, verdicts from decrypted traces"}
}

// Flags implements suite.Suite.
func (s *Suite) Flags(fs *flag.FlagSet, root string) {
	s.clients = fs.String("clients", "", "comma-separated client implementations (default: every image with the quic client role)")
	s.servers = fs.String("servers", "", "comma-separated server implementations (default: every image with the quic server role)")
	s.tests = fs.String("tests", "", "comma-separated test cases (default: all in the cases file)")
	s.profile = fs.String("profile", "", "sim profile `reference` for every cell, instead of each case's own")
	s.casesFile = fs.String("cases-file", defaultCasesFile(root), "the test cases `file`")
}

func defaultCasesFile(root string) string {
	return filepath.Join(root, "conformance", "quic", "testcases.yml")
}

// Load implements suite.Suite.
func (s *Suite) Load(in suite.Input) (suite.Matrix, error) {
	allCases, err := LoadCases(*s.casesFile)
	if err != nil {
		return nil, err
	}
	m := &Matrix{root: in.Root, profile: *s.profile, allCases: allCases, ownData: *s.casesFile == defaultCasesFile(in.Root),
		byCase: map[string]*Case{}}
	if m.cases, err = matrix.Select(allCases, *s.tests, func(c *Case) string { return c.Name }, "test case"); err != nil {
		return nil, suite.BadInput{Msg: "--tests: " + err.Error()}
	}
	roster, err := SelectRoster(in.Manifests, "quic", *s.clients, *s.servers)
	if err != nil {
		return nil, suite.BadInput{Msg: err.Error()}
	}
	m.impls, m.allClients, m.allServers, m.clients, m.servers = roster.ByName, roster.AllClients, roster.AllServers, roster.Clients, roster.Servers
	if len(m.clients) == 0 || len(m.servers) == 0 {
		return nil, suite.BadInput{Msg: fmt.Sprintf("no QUIC clients or servers to run (images with a quic role: %d)", len(m.impls))}
	}
	for _, c := range m.cases {
		ref := c.Profile
		if m.profile != "" {
			ref = m.profile
		}
		if _, err := in.Profiles.Resolve(ref); err != nil {
			return nil, suite.BadInput{Msg: err.Error()}
		}
	}
	for _, c := range allCases {
		m.byCase[c.Name] = c
	}
	return m, nil
}

// Matrix is a loaded selection of the QUIC suite.
type Matrix struct {
	root, profile            string
	ownData                  bool
	allCases, cases          []*Case
	allClients, allServers   []Impl
	clients, servers         []Impl
	impls                    map[string]Impl
	byCase                   map[string]*Case
	compliant                map[string]string // "name/role" -> "" or why the image is not compliant (Before)
	trace                    TraceChecker
	traceTool                *tshark.Tool
	clientNames, serverNames []string
}

// Describe implements suite.Matrix.
func (m *Matrix) Describe() string {
	return fmt.Sprintf("%d clients x %d servers x %d cases", len(m.clients), len(m.servers), len(m.cases))
}

// Cells implements suite.Matrix: servers outer, then clients, then cases; a measurement runs its
// own repetitions, all of which must pass.
func (m *Matrix) Cells() []matrix.PlanCell {
	var out []matrix.PlanCell
	for _, s := range m.servers {
		for _, cl := range m.clients {
			for _, c := range m.cases {
				pc := matrix.PlanCell{Cell: matrix.Cell{Server: s.Name, Client: cl.Name, Case: c.Name, Abbr: c.Abbr}, TypicalSeconds: c.TypicalSeconds}
				pc.Why = declaredUnsupported(s, cl, c)
				pc.Skip = pc.Why != ""
				if c.IsMeasurement() {
					pc.Policy = matrix.Policy{Mode: matrix.AllMustPass, N: c.Repetitions}
					pc.TypicalSeconds /= float64(max(1, c.Repetitions)) // typical_seconds is the whole measurement's
				}
				out = append(out, pc)
			}
		}
	}
	return out
}

// Universe implements suite.Matrix.
func (m *Matrix) Universe() matrix.Universe {
	name := func(i Impl) string { return i.Name }
	return matrix.Universe{matrix.AxisServer: names(m.allServers, name), matrix.AxisClient: names(m.allClients, name),
		matrix.AxisCase: names(m.allCases, func(c *Case) string { return c.Name })}
}

// OwnData implements suite.Matrix.
func (m *Matrix) OwnData() bool { return m.ownData }

// Images implements suite.Matrix: the selected implementations built from images/, the sim,
// tshark (the trace checks) and the endpoint (the compliance probe's other side, iperf).
func (m *Matrix) Images() []string {
	return ImageNames(append(append([]Impl(nil), m.clients...), m.servers...), "sim", "tshark", "endpoint")
}

// ImageNames are the images a selection starts: the implementations built from images/ (not
// those given by reference) and the lab's own tools, sorted, each once.
func ImageNames(impls []Impl, tools ...string) []string {
	set := map[string]bool{}
	for _, t := range tools {
		set[t] = true
	}
	for _, i := range impls {
		if i.Manifest {
			set[i.Name] = true
		}
	}
	return sortedSet(set)
}

// Columns implements suite.Matrix.
func (m *Matrix) Columns() []matrix.Column { return Columns(m.cases) }

// Before implements suite.Matrix: the compliance probe of every image the cells to run use.
func (m *Matrix) Before(ctx context.Context, r *suite.Run, todo []matrix.Cell) error {
	m.traceTool = &tshark.Tool{Docker: r.Run.Docker}
	if m.trace == nil {
		m.trace = QuicTrace{Tshark: m.traceTool}
	}
	if len(todo) > 0 { // one tshark container for the run's verdicts
		if err := m.traceTool.Serve(ctx, r.Run.Dir, r.Run.Labels()); err != nil {
			return err
		}
	}
	var clients, servers []Impl
	seen := map[string]bool{}
	for _, c := range todo {
		if !seen[c.Client+"/client"] {
			seen[c.Client+"/client"], clients = true, append(clients, m.impls[c.Client])
		}
		if !seen[c.Server+"/server"] {
			seen[c.Server+"/server"], servers = true, append(servers, m.impls[c.Server])
		}
	}
	m.compliant = complianceProbes(ctx, r, clients, servers)
	return nil
}

// Summary implements suite.Matrix: result.json in the upstream runner's layout.
func (m *Matrix) Summary(_ *suite.Run, results []matrix.Result) any {
	urls := map[string]string{}
	for _, i := range append(append([]Impl(nil), m.clients...), m.servers...) {
		urls[i.Name] = i.URL
	}
	sum := Summarize(m.cases, m.names(m.clients), m.names(m.servers), results, urls)
	return &sum
}

// After implements suite.Matrix: QUIC cells are judged one by one.
func (m *Matrix) After(_ context.Context, _ *suite.Run, results []matrix.Result) ([]matrix.Result, error) {
	if m.traceTool != nil {
		m.traceTool.Close()
	}
	return results, nil
}

// PrintTable implements suite.Matrix: a client x server table per case, as upstream prints it.
func (m *Matrix) PrintTable(w io.Writer, _ *suite.Run, results []matrix.Result) {
	matrix.PrintTable(w, Columns(m.cases), m.names(m.clients), m.names(m.servers), results)
}

func (m *Matrix) names(impls []Impl) []string {
	return names(impls, func(i Impl) string { return i.Name })
}

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

func sortedSet(set map[string]bool) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
