package h2suite

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/tshark"
)

// Suite is the HTTP/2 matrix: every server x section (h2spec, wirelab's own flow-control cases,
// upload BDP, robustness probes), each cell through the sim on one profile.
type Suite struct {
	servers, cases, profile, h2spec, matrixFile *string
	uploadSize                                  *int64
	uploadReps                                  *int
}

// Info implements suite.Suite.
func (*Suite) Info() suite.Info {
	return suite.Info{Name: "h2", Make: "h2", Roles: []string{"client", "server"}, ALPN: []string{"h2", "http/1.1"},
		Summary: "HTTP/2 matrix: server x section (h2spec, own flow-control cases, upload BDP, robustness probes) through the sim"}
}

// Flags implements suite.Suite.
func (s *Suite) Flags(fs *flag.FlagSet, root string) {
	s.servers = fs.String("servers", "", "comma-separated servers (default: every image with the h2 server role)")
	s.cases = fs.String("cases", "", "comma-separated sections: h2spec and wirelab's own cases (default: all in the matrix file)")
	s.profile = fs.String("profile", "ideal", "sim profile `reference` for every cell")
	s.h2spec = fs.String("h2spec", "", "narrow the h2spec section to these h2spec `specs` (e.g. http2/6.9: 6.9, 6.9.1, 6.9.2)")
	s.uploadSize = fs.Int64("upload-size", 0, "upload sections: body `bytes` (default: the matrix file's, 10 MB)")
	s.uploadReps = fs.Int("upload-reps", 0, "upload sections: `repetitions` on fresh connections (default: the matrix file's, 5)")
	s.matrixFile = fs.String("matrix-file", defaultMatrixFile(root), "the sections `file`")
}

func defaultMatrixFile(root string) string {
	return filepath.Join(root, "conformance", "h2", "matrix.yml")
}

// Load implements suite.Suite.
func (s *Suite) Load(in suite.Input) (suite.Matrix, error) {
	all, err := LoadSections(*s.matrixFile)
	if err != nil {
		return nil, err
	}
	m := &Matrix{allSections: all, profile: *s.profile, ownData: *s.matrixFile == defaultMatrixFile(in.Root),
		rtts: map[string]time.Duration{}, byServer: map[string]Server{}, bySection: map[string]*Section{}}
	if m.sections, err = matrix.Select(all, *s.cases, func(s *Section) string { return s.Name }, "section"); err != nil {
		return nil, suite.BadInput{Msg: "--cases: " + err.Error()}
	}
	// The narrowing flags change the sections: work on copies, the loaded file stays as it is.
	for i, sec := range m.sections {
		c := *sec
		m.sections[i] = &c
	}
	if err := NarrowH2spec(m.sections, *s.h2spec); err != nil {
		return nil, suite.BadInput{Msg: "--h2spec: " + err.Error()}
	}
	if err := ResizeUploads(m.sections, *s.uploadSize, *s.uploadReps); err != nil {
		return nil, suite.BadInput{Msg: "--upload-size/--upload-reps: " + err.Error()}
	}
	m.allServers = ServersFromManifests(in.Manifests)
	if m.servers, err = matrix.Select(m.allServers, *s.servers, func(s Server) string { return s.Name }, "server"); err != nil {
		return nil, suite.BadInput{Msg: "--servers: " + err.Error()}
	}
	if len(m.servers) == 0 {
		return nil, suite.BadInput{Msg: "no HTTP/2 servers to run (no image has the h2 server role)"}
	}
	for _, ref := range append([]string{m.profile}, Profiles(m.sections)...) {
		resolved, err := in.Profiles.Resolve(ref)
		if err != nil {
			return nil, suite.BadInput{Msg: fmt.Sprintf("profile %s: %v", ref, err)}
		}
		link := resolved.Initial()
		m.rtts[ref] = link.ToClient.Delay + link.ToServer.Delay
	}
	for _, f := range [][2]string{{"--h2spec", *s.h2spec}, {"--upload-size", nonZero(*s.uploadSize)}, {"--upload-reps", nonZero(int64(*s.uploadReps))}} {
		if f[1] != "" {
			m.rerunFlags += " " + f[0] + " " + f[1]
		}
	}
	for _, sv := range m.servers {
		m.byServer[sv.Name] = sv
	}
	for _, sec := range m.sections {
		m.bySection[sec.Name] = sec
	}
	return m, nil
}

// nonZero is n as a flag value, "" for 0 (the matrix file's default).
func nonZero(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}

// Matrix is a loaded selection of the h2 suite.
type Matrix struct {
	allSections, sections []*Section
	allServers, servers   []Server
	byServer              map[string]Server
	bySection             map[string]*Section
	profile, rerunFlags   string
	ownData               bool
	rtts                  map[string]time.Duration // each profile's round trip: client time limits grow with it
	tshark                *tshark.Tool             // editcap for the decrypted pcapng, the upload table's windows
	uploads               []UploadRow
}

// Describe implements suite.Matrix.
func (m *Matrix) Describe() string {
	return fmt.Sprintf("%d servers x %d sections on %s", len(m.servers), len(m.sections), m.profile)
}

// Cells implements suite.Matrix: servers outer, sections inner; a section's client is the
// cell's client (h2spec, h2check, ...). A server that speaks no HTTP/1.1 skips the HTTP/1.1
// uploads.
func (m *Matrix) Cells() []matrix.PlanCell {
	var out []matrix.PlanCell
	for _, s := range m.servers {
		for _, sec := range m.sections {
			ok, why := s.supports(sec)
			out = append(out, matrix.PlanCell{Cell: matrix.Cell{Server: s.Name, Client: sec.Client, Case: sec.Name, Abbr: sec.Abbr},
				Skip: !ok, Why: why, TypicalSeconds: sec.TypicalSeconds})
		}
	}
	return out
}

// Universe implements suite.Matrix.
func (m *Matrix) Universe() matrix.Universe {
	var servers, clients, cases []string
	for _, s := range m.allServers {
		servers = append(servers, s.Name)
	}
	for _, s := range m.allSections {
		clients, cases = append(clients, s.Client), append(cases, s.Name)
	}
	return matrix.Universe{matrix.AxisServer: servers, matrix.AxisClient: clients, matrix.AxisCase: cases}
}

// OwnData implements suite.Matrix.
func (m *Matrix) OwnData() bool { return m.ownData }

// Images implements suite.Matrix: the servers, the sections' clients, the sim and tshark.
func (m *Matrix) Images() []string {
	set := map[string]bool{"sim": true, "tshark": true}
	for _, s := range m.servers {
		if s.Manifest {
			set[s.Name] = true
		}
	}
	for _, sec := range m.sections {
		set[sec.Client] = true
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Columns implements suite.Matrix.
func (m *Matrix) Columns() []matrix.Column { return Columns(m.sections) }

// Columns are the sections as the terminal table shows them.
func Columns(sections []*Section) []matrix.Column {
	out := make([]matrix.Column, len(sections))
	for i, s := range sections {
		out[i] = matrix.Column{Name: s.Name, Abbr: s.Abbr}
	}
	return out
}

// Before implements suite.Matrix.
func (m *Matrix) Before(ctx context.Context, r *suite.Run, todo []matrix.Cell) error {
	m.tshark = &tshark.Tool{Docker: r.Run.Docker}
	if len(todo) == 0 {
		return nil
	}
	return m.tshark.Serve(ctx, r.Run.Dir, r.Run.Labels()) // one tshark container for the run's traces
}

// After implements suite.Matrix: the upload table (upload.csv) from the upload cells' traces.
func (m *Matrix) After(ctx context.Context, r *suite.Run, results []matrix.Result) ([]matrix.Result, error) {
	if m.tshark == nil {
		m.tshark = &tshark.Tool{Docker: r.Run.Docker}
	}
	m.uploads = UploadRows(ctx, m.tshark, m.sections, results)
	m.tshark.Close()
	if len(m.uploads) > 0 {
		if err := WriteUploadCSV(filepath.Join(r.Run.Dir, "upload.csv"), m.uploads); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// Summary implements suite.Matrix.
func (m *Matrix) Summary(_ *suite.Run, results []matrix.Result) any {
	sum := Summarize(m.sections, m.servers, results, m.profile)
	return &sum
}

// PrintTable implements suite.Matrix: the server x section grid and the upload table.
func (m *Matrix) PrintTable(w io.Writer, _ *suite.Run, results []matrix.Result) {
	var names []string
	for _, s := range m.servers {
		names = append(names, s.Name)
	}
	matrix.PrintGrid(w, Columns(m.sections), names, results)
	PrintUploadTable(w, m.uploads)
}

// profileOf is the sim profile a section's cells run on.
func (m *Matrix) profileOf(sec *Section) string {
	if sec.Profile != "" {
		return sec.Profile
	}
	return m.profile
}

// limit is a section's client time limit on its profile: the ideal-link limit plus a hundred
// round trips per minute of it (h2spec's ~150 cases each wait for answers).
func (m *Matrix) limit(sec *Section) time.Duration {
	if sec.Client == ClientH2check {
		return time.Duration(float64(sec.Limit) * m.h2checkScale(sec))
	}
	return sec.Limit + time.Duration(sec.Limit.Minutes()*100)*m.rtts[m.profileOf(sec)]
}

// h2checkScale stretches wirelab's own cases' time limits (h2check -timeout) for the profile's
// RTT: the slowest case (tiny WINDOW_UPDATEs) takes about a thousand round trips, so each 20 ms
// of RTT adds one limit's worth.
func (m *Matrix) h2checkScale(sec *Section) float64 {
	return 1 + 50*m.rtts[m.profileOf(sec)].Seconds()
}

// h2specTimeout is h2spec's per-case -o (seconds): its default 2 s, or four round trips and a
// second when the profile's RTT makes that longer.
func (m *Matrix) h2specTimeout(sec *Section) int {
	return max(2, int((4*m.rtts[m.profileOf(sec)]+time.Second).Seconds()+0.999))
}
