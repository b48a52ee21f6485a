package wtsuite

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/tshark"
)

// Name is the suite's name: the subcommand, out/webtransport/, the manifests' roles.webtransport.
const Name = "webtransport"

// Suite is the WebTransport interop matrix.
type Suite struct {
	clients, servers, tests, profile, casesFile *string
}

// Info implements suite.Suite.
func (*Suite) Info() suite.Info {
	// Jobs: as QUIC's cells, WebTransport cells mostly wait (container starts, the sim), so 4
	// keep 2 cores busy.
	return suite.Info{Name: Name, Make: "webtransport", Roles: []string{"client", "server"}, ClientRows: true, Jobs: 4,
		Summary: "WebTransport interop matrix (upstream's 7 cases): client x server x case through the sim, verdicts from decrypted traces"}
}

// Flags implements suite.Suite.
func (s *Suite) Flags(fs *flag.FlagSet, root string) {
	s.clients = fs.String("clients", "", "comma-separated client implementations (default: every image with the webtransport client role)")
	s.servers = fs.String("servers", "", "comma-separated server implementations (default: every image with the webtransport server role)")
	s.tests = fs.String("tests", "", "comma-separated test cases (default: all in the cases file)")
	s.profile = fs.String("profile", "", "sim profile `reference` for every cell, instead of each case's own")
	s.casesFile = fs.String("cases-file", defaultCasesFile(root), "the test cases `file`")
}

func defaultCasesFile(root string) string {
	return filepath.Join(root, "conformance", Name, "cases.yml")
}

// Load implements suite.Suite.
func (s *Suite) Load(in suite.Input) (suite.Matrix, error) {
	all, err := LoadCases(*s.casesFile)
	if err != nil {
		return nil, err
	}
	m := &Matrix{profile: *s.profile, allCases: all, ownData: *s.casesFile == defaultCasesFile(in.Root),
		byCase: map[string]*Case{}}
	if m.cases, err = matrix.Select(all, *s.tests, func(c *Case) string { return c.Name }, "test case"); err != nil {
		return nil, suite.BadInput{Msg: "--tests: " + err.Error()}
	}
	roster, err := quicinterop.SelectRoster(in.Manifests, Name, *s.clients, *s.servers)
	if err != nil {
		return nil, suite.BadInput{Msg: err.Error()}
	}
	m.impls, m.allClients, m.allServers, m.clients, m.servers = roster.ByName, roster.AllClients, roster.AllServers, roster.Clients, roster.Servers
	if len(m.clients) == 0 || len(m.servers) == 0 {
		return nil, suite.BadInput{Msg: fmt.Sprintf("no WebTransport clients or servers to run (images with a webtransport role: %d)", len(m.impls))}
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
	for _, c := range all {
		m.byCase[c.Name] = c
	}
	return m, nil
}

// Matrix is a loaded selection of the WebTransport suite.
type Matrix struct {
	profile                string
	ownData                bool
	allCases, cases        []*Case
	allClients, allServers []quicinterop.Impl
	clients, servers       []quicinterop.Impl
	impls                  map[string]quicinterop.Impl
	byCase                 map[string]*Case
	traceTool              *tshark.Tool
}

// Describe implements suite.Matrix.
func (m *Matrix) Describe() string {
	return fmt.Sprintf("%d clients x %d servers x %d cases", len(m.clients), len(m.servers), len(m.cases))
}

// Cells implements suite.Matrix: servers outer, then clients, then cases.
func (m *Matrix) Cells() []matrix.PlanCell {
	var out []matrix.PlanCell
	for _, s := range m.servers {
		for _, cl := range m.clients {
			for _, c := range m.cases {
				pc := matrix.PlanCell{Cell: matrix.Cell{Server: s.Name, Client: cl.Name, Case: c.Name, Abbr: c.Abbr}, TypicalSeconds: c.TypicalSeconds}
				if !s.Supports(c.Name, "server") || !cl.Supports(c.Name, "client") {
					pc.Skip, pc.Why = true, "not in the image's declared test cases"
				}
				out = append(out, pc)
			}
		}
	}
	return out
}

// Universe implements suite.Matrix.
func (m *Matrix) Universe() matrix.Universe {
	return matrix.Universe{matrix.AxisServer: implNames(m.allServers), matrix.AxisClient: implNames(m.allClients),
		matrix.AxisCase: caseNames(m.allCases)}
}

// OwnData implements suite.Matrix.
func (m *Matrix) OwnData() bool { return m.ownData }

// Images implements suite.Matrix: the selected implementations, the sim and tshark.
func (m *Matrix) Images() []string {
	return quicinterop.ImageNames(append(append([]quicinterop.Impl(nil), m.clients...), m.servers...), "sim", "tshark")
}

// Columns implements suite.Matrix.
func (m *Matrix) Columns() []matrix.Column {
	out := make([]matrix.Column, len(m.cases))
	for i, c := range m.cases {
		out[i] = matrix.Column{Name: c.Name, Abbr: c.Abbr}
	}
	return out
}

// Before implements suite.Matrix: one tshark container for the run's verdicts.
func (m *Matrix) Before(ctx context.Context, r *suite.Run, todo []matrix.Cell) error {
	m.traceTool = &tshark.Tool{Docker: r.Run.Docker}
	if len(todo) > 0 {
		return m.traceTool.Serve(ctx, r.Run.Dir, r.Run.Labels())
	}
	return nil
}

// After implements suite.Matrix: cells are judged one by one.
func (m *Matrix) After(_ context.Context, _ *suite.Run, results []matrix.Result) ([]matrix.Result, error) {
	if m.traceTool != nil {
		m.traceTool.Close()
	}
	return results, nil
}

// Summary implements suite.Matrix: result.json in the upstream runner's layout.
func (m *Matrix) Summary(_ *suite.Run, results []matrix.Result) any {
	urls := map[string]string{}
	for _, i := range append(append([]quicinterop.Impl(nil), m.clients...), m.servers...) {
		urls[i.Name] = i.URL
	}
	var cases []*quicinterop.Case
	for _, c := range m.cases {
		cases = append(cases, &quicinterop.Case{Name: c.Name, Abbr: c.Abbr, Description: c.Description})
	}
	sum := quicinterop.Summarize(cases, implNames(m.clients), implNames(m.servers), results, urls)
	return &sum
}

// PrintTable implements suite.Matrix: a client x server table per case, as upstream prints it.
func (m *Matrix) PrintTable(w io.Writer, _ *suite.Run, results []matrix.Result) {
	matrix.PrintTable(w, m.Columns(), implNames(m.clients), implNames(m.servers), results)
}

func implNames(xs []quicinterop.Impl) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Name
	}
	return out
}

func caseNames(xs []*Case) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Name
	}
	return out
}
