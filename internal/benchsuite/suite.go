package benchsuite

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// Suite is the protocol performance testbed: download time of 1 KB..10 MB over HTTP/1.1, h2
// and h3 per server, client, variant and profile, each repetition a topology of its own.
type Suite struct {
	benchFile                                                              *string
	quick                                                                  *bool
	servers, clients, protocols, profiles, sizes, congestion, gso, hystart *string
	reps                                                                   *int
}

// Info implements suite.Suite. One cell at a time unless asked: parallel cells share the CPU the
// timings depend on.
func (*Suite) Info() suite.Info {
	return suite.Info{Name: "bench", Make: "bench", Roles: []string{"client", "server"}, ALPN: []string{"http/1.1", "h2", "h3"}, Jobs: 1, NoRepeat: true,
		Repeat:  "must be 1: the bench repeats with --reps (each repetition on its own seed)",
		Summary: "protocol performance testbed: download time of 1 KB..10 MB over HTTP/1.1, h2 and h3 per server and profile"}
}

// Flags implements suite.Suite.
func (s *Suite) Flags(fs *flag.FlagSet, root string) {
	s.benchFile = fs.String("bench-file", defaultBenchFile(root), "the bench `file`: sizes, protocols, profiles, quick set")
	s.quick = fs.Bool("quick", false, "the short set of the bench file's quick: entry (servers, profiles, sizes, repetitions); the flags below override it")
	s.servers = fs.String("servers", "", "comma-separated servers (default: every image with the bench server role)")
	s.clients = fs.String("clients", "", "comma-separated clients: curl (h1, h2, h3) and the QUIC stacks' own h3 clients, timed from "+
		"their qlog (default: every image with the bench client role)")
	s.protocols = fs.String("protocols", "", "comma-separated protocols: h1, h2, h3 (default: all in the bench file)")
	s.profiles = fs.String("profiles", "", "comma-separated sim profiles (default: the bench file's, but those marked optional, e.g. ideal)")
	s.sizes = fs.String("sizes", "", "comma-separated object sizes, e.g. 1KB,1MB (default: all in the bench file)")
	s.congestion = fs.String("congestion", "", "comma-separated congestion controls of the servers to sweep, e.g. cubic,bbr: each server runs "+
		"once per algorithm, its variant axis naming it (default: none, TCP cubic and each QUIC stack's own)")
	s.gso = fs.String("gso", "", "comma-separated UDP GSO modes of the servers' QUIC stacks to sweep, on,off: each server runs once per mode "+
		"(variant gso-<mode>, with --congestion <algorithm>+gso-<mode>), h3 cells only; an image without the switch is unsupported "+
		"(default: none, each image's own)")
	s.hystart = fs.String("hystart", "", "comma-separated HyStart++ modes of the servers' QUIC CUBIC to sweep, on,off: each server runs once per "+
		"mode (variant hystart-<mode>, joined to the others with +: cubic+hystart-off), h3 cells only; an image without the switch is "+
		"unsupported (default: none, each stack's own; ngtcp2 switches, with a libngtcp2 built without HyStart++)")
	s.reps = fs.Int("reps", 0, fmt.Sprintf("repetitions per cell, 1..%d (default: the bench file's)", MaxRepetitions))
}

func defaultBenchFile(root string) string {
	return filepath.Join(root, "conformance", "bench", "bench.yml")
}

// Load implements suite.Suite.
func (s *Suite) Load(in suite.Input) (suite.Matrix, error) {
	cfg, err := Load(*s.benchFile)
	if err != nil {
		return nil, err
	}
	allServers, allClients := ServersFromManifests(in.Manifests), ClientsFromManifests(in.Manifests)
	plan, err := cfg.Select(allServers, allClients, Selection{Quick: *s.quick, Servers: *s.servers, Clients: *s.clients, Protocols: *s.protocols,
		Profiles: *s.profiles, Sizes: *s.sizes, Congestion: *s.congestion, GSO: *s.gso, HyStart: *s.hystart, Reps: *s.reps})
	if err != nil {
		return nil, suite.BadInput{Msg: err.Error()}
	}
	m := &Matrix{plan: plan, cfg: cfg, links: map[string]Link{}, ownData: *s.benchFile == defaultBenchFile(in.Root)}
	m.universe = matrix.Universe{matrix.AxisServer: names(allServers, func(s Server) string { return s.Name }),
		matrix.AxisClient: names(allClients, func(c Client) string { return c.Name }),
		matrix.AxisCase:   names(cfg.Profiles, func(p Profile) string { return p.Name }),
		AxisProtocol:      names(cfg.Protocols, func(p Protocol) string { return p.Name }),
		AxisVariant:       VariantNames(cfg.CongestionControls, cfg.GSOModes, cfg.HyStartModes)}
	for _, p := range plan.Profiles {
		resolved, err := in.Profiles.Resolve(p.Name)
		if err != nil {
			return nil, suite.BadInput{Msg: fmt.Sprintf("profile %s: %v", p.Name, err)}
		}
		l := resolved.Initial()
		m.links[p.Name] = Link{DownRate: l.ToClient.Rate, RTT: l.ToClient.Delay + l.ToServer.Delay, Loss: l.ToClient.Loss}
	}
	m.rerunFlags = fmt.Sprintf(" --sizes %s --reps %d", strings.Join(names(plan.Sizes, func(s Size) string { return s.Name }), ","), plan.Repetitions)
	return m, nil
}

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

// Link is what the bench needs to know of a profile: its down rate (bit/s, 0 unlimited), its
// round trip and its random loss towards the client (for the loss chart).
type Link struct {
	DownRate int64
	RTT      time.Duration
	Loss     float64 // 0..1
}

// Matrix is a loaded selection of the bench.
type Matrix struct {
	plan       *Plan
	cfg        *Config
	links      map[string]Link // by profile
	universe   matrix.Universe
	rerunFlags string
	ownData    bool
	www        string            // the run's objects, shared (read-only) by every cell
	objects    map[string]string // SHA-256 of each size's object, by size name
	rows       []Row
	charts     []Chart
}

// Describe implements suite.Matrix.
func (m *Matrix) Describe() string {
	p := m.plan
	return fmt.Sprintf("%d servers x %d clients (%s) x %d profiles, sizes %s, %d repetitions", len(p.Servers), len(p.ClientNames()),
		strings.Join(p.ClientNames(), ","), len(p.Profiles), strings.Join(names(p.Sizes, func(s Size) string { return s.Name }), ","), p.Repetitions)
}

// Cells implements suite.Matrix.
func (m *Matrix) Cells() []matrix.PlanCell {
	rates := map[string]int64{}
	for name, l := range m.links {
		rates[name] = l.DownRate
	}
	return m.plan.PlanCells(rates)
}

// Universe implements suite.Matrix.
func (m *Matrix) Universe() matrix.Universe { return m.universe }

// OwnData implements suite.Matrix.
func (m *Matrix) OwnData() bool { return m.ownData }

// Images implements suite.Matrix: the servers, the clients and the sim.
func (m *Matrix) Images() []string {
	set := map[string]bool{"sim": true}
	for _, s := range m.plan.Servers {
		set[s.Name] = true
	}
	for _, c := range m.plan.Clients {
		set[c.Name] = true
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Columns implements suite.Matrix.
func (m *Matrix) Columns() []matrix.Column { return m.plan.Columns() }

// Before implements suite.Matrix: the run's objects, written once and shared by every cell.
func (m *Matrix) Before(_ context.Context, r *suite.Run, _ []matrix.Cell) error {
	m.www = filepath.Join(r.Run.Dir, "www")
	if err := WriteFiles(m.www, m.plan.Sizes, r.Seed); err != nil {
		return err
	}
	var err error
	m.objects, err = HashFiles(m.www, m.plan.Sizes)
	return err
}

// After implements suite.Matrix: bench.csv and the charts from every cell's bench.json.
func (m *Matrix) After(_ context.Context, r *suite.Run, results []matrix.Result) ([]matrix.Result, error) {
	m.rows = Rows(m.plan, results)
	if err := WriteCSV(filepath.Join(r.Run.Dir, "bench.csv"), m.rows); err != nil {
		return nil, err
	}
	losses := map[string]float64{}
	for _, p := range m.plan.Profiles {
		if p.LossSweep {
			losses[p.Name] = m.links[p.Name].Loss * 100
		}
	}
	var err error
	m.charts, err = WriteCharts(r.Run.Dir, m.rows, losses)
	return results, err
}

// Summary implements suite.Matrix.
func (m *Matrix) Summary(r *suite.Run, _ []matrix.Result) any {
	sum := Summarize(m.plan, r.Seed, m.rows, m.charts)
	return &sum
}

// PrintTable implements suite.Matrix: the verdicts (rows: server@protocol+variant and client,
// columns: profiles), the download times, the charts.
func (m *Matrix) PrintTable(w io.Writer, r *suite.Run, results []matrix.Result) {
	var rows []string
	seen := map[string]bool{}
	for _, c := range m.Cells() {
		if k := c.Slot() + "_" + c.Client; !seen[k] {
			seen[k], rows = true, append(rows, k)
		}
	}
	byRow := make([]matrix.Result, len(results))
	for i, res := range results { // one grid row per server, protocol, variant and client
		byRow[i] = res
		byRow[i].Server, byRow[i].Axes = res.Slot()+"_"+res.Client, nil
	}
	matrix.PrintGrid(w, m.plan.Columns(), rows, byRow)
	PrintSummary(w, m.rows)
	first := "none"
	if len(m.charts) > 0 {
		first = m.charts[0].File
	}
	fmt.Fprintf(w, "\n%d charts in %s (%s, ...)\n", len(m.charts), r.Run.Dir, first)
}
