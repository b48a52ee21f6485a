package livefuzz

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/tshark"
)

// Name is the suite's name: the subcommand, out/fuzz-live/, the manifests' roles.fuzz-live.
const Name = "fuzz-live"

// Suite is make fuzz-live (a campaign per target and protocol) and make fuzz-repro (--replay).
type Suite struct {
	targets, campaigns, client, duration, seeds, corpus, replay, rulesFile, campaignsFile *string
	seed                                                                                  *uint64
}

// Info implements suite.Suite.
func (*Suite) Info() suite.Info {
	// Jobs 1: the fuzzing client and the server each want a core; two campaigns at once would
	// halve each one's inputs per second and make the rates meaningless.
	return suite.Info{Name: Name, Make: "fuzz-live", Roles: []string{"client", "server"}, Jobs: 1, NoRepeat: true,
		Summary: "stateful fuzzing of each QUIC server image as deployed: crash, liveness, resource, RFC-MUST and differential oracles"}
}

// Flags implements suite.Suite.
func (s *Suite) Flags(fs *flag.FlagSet, root string) {
	s.targets = fs.String("target", "", "comma-separated QUIC server images to fuzz (default: every image with the fuzz-live server role)")
	s.campaigns = fs.String("campaigns", "", "comma-separated campaigns (default: all in the campaigns file the target declares)")
	s.client = fs.String("client", "quicfuzz", "the fuzzing client image")
	s.duration = fs.String("duration", "5m", "how long each campaign sends inputs (after the seeds)")
	s.seeds = fs.String("seeds", filepath.Join(root, "conformance", Name, "seeds"), "the shared seed inputs `dir` every campaign answers first (none: no seeds)")
	s.corpus = fs.String("corpus", filepath.Join(root, "out", Name, "corpus"), "the corpus `dir`: <target>/<campaign>/ grows across campaigns (none: start empty, keep nothing)")
	s.replay = fs.String("replay", "", "replay a finding `dir` (finding.json, inputs.json) against its target instead of fuzzing (make fuzz-repro)")
	s.rulesFile = fs.String("rules-file", filepath.Join(root, "conformance", Name, "rules.yml"), "the RFC oracle's rules `file`")
	s.campaignsFile = fs.String("campaigns-file", filepath.Join(root, "conformance", Name, "campaigns.yml"), "the campaigns `file`")
	s.seed = fs.Uint64("fuzz-seed", 0, "the mutation engine's seed (0: the run's seed)")
}

// Load implements suite.Suite.
func (s *Suite) Load(in suite.Input) (suite.Matrix, error) {
	d, err := time.ParseDuration(*s.duration)
	if err != nil || d < 5*time.Second || d > 24*time.Hour {
		return nil, suite.BadInput{Msg: fmt.Sprintf("--duration %q: want 5s..24h", *s.duration)}
	}
	rules, err := LoadRules(*s.rulesFile)
	if err != nil {
		return nil, err
	}
	cf, err := LoadCampaigns(*s.campaignsFile)
	if err != nil {
		return nil, err
	}
	m := &Matrix{duration: d, rules: rules, bounds: cf, seedsDir: *s.seeds, corpusDir: *s.corpus, fuzzSeed: *s.seed,
		byCampaign: map[string]*Campaign{}, allCampaigns: cf.Campaigns}
	for _, c := range cf.Campaigns {
		m.byCampaign[c.Name] = c
	}
	targets, campaigns := *s.targets, *s.campaigns
	if *s.replay != "" {
		f, err := ReadFinding(*s.replay)
		if err != nil {
			return nil, suite.BadInput{Msg: "--replay: " + err.Error()}
		}
		m.replay, targets, campaigns = f, f.Target, f.Campaign
	}
	if m.seedsDir != "none" {
		if st, err := os.Stat(m.seedsDir); err != nil || !st.IsDir() {
			return nil, suite.BadInput{Msg: fmt.Sprintf("--seeds %s: not a folder (none: no seeds)", m.seedsDir)}
		}
	}
	if m.campaigns, err = matrix.Select(cf.Campaigns, campaigns, func(c *Campaign) string { return c.Name }, "campaign"); err != nil {
		return nil, suite.BadInput{Msg: "--campaigns: " + err.Error()}
	}
	roster, err := quicinterop.SelectRoster(in.Manifests, Name, *s.client, targets)
	if err != nil {
		return nil, suite.BadInput{Msg: err.Error()}
	}
	m.impls, m.allTargets, m.targets = roster.ByName, roster.AllServers, roster.Servers
	if len(roster.Clients) != 1 {
		return nil, suite.BadInput{Msg: fmt.Sprintf("--client %q: want one image with the fuzz-live client role", *s.client)}
	}
	m.client = roster.Clients[0]
	if len(m.targets) == 0 {
		return nil, suite.BadInput{Msg: "no fuzz-live targets (images with roles.fuzz-live [server])"}
	}
	return m, nil
}

// Matrix is a loaded selection of make fuzz-live.
type Matrix struct {
	duration            time.Duration
	rules               []*Rule
	bounds              *Campaigns
	seedsDir, corpusDir string
	fuzzSeed            uint64
	replay              *Finding
	allCampaigns        []*Campaign
	campaigns           []*Campaign
	byCampaign          map[string]*Campaign
	client              quicinterop.Impl
	allTargets, targets []quicinterop.Impl
	impls               map[string]quicinterop.Impl
	traceTool           *tshark.Tool
}

// Describe implements suite.Matrix.
func (m *Matrix) Describe() string {
	if m.replay != nil {
		return fmt.Sprintf("replay of %s against %s (%s)", m.replay.Dir, m.replay.Target, m.replay.Campaign)
	}
	return fmt.Sprintf("%d targets x %d campaigns, %s each, client %s", len(m.targets), len(m.campaigns), m.duration, m.client.Name)
}

// Cells implements suite.Matrix: one per target and campaign the target declares.
func (m *Matrix) Cells() []matrix.PlanCell {
	var out []matrix.PlanCell
	typical := m.duration.Seconds() + 40 // seeds, the liveness checks, start and fence
	if m.replay != nil {
		typical = 20
	}
	for _, t := range m.targets {
		for _, c := range m.campaigns {
			pc := matrix.PlanCell{Cell: matrix.Cell{Server: t.Name, Client: m.client.Name, Case: c.Name, Abbr: c.Abbr}, TypicalSeconds: typical, SetSeconds: true}
			if !t.Supports(c.Name, "server") || !m.client.Supports(c.Name, "client") {
				pc.Skip, pc.Why = true, "not in the image's declared fuzz-live campaigns"
			}
			out = append(out, pc)
		}
	}
	return out
}

// Universe implements suite.Matrix.
func (m *Matrix) Universe() matrix.Universe {
	var ts, cs []string
	for _, t := range m.allTargets {
		ts = append(ts, t.Name)
	}
	for _, c := range m.allCampaigns {
		cs = append(cs, c.Name)
	}
	return matrix.Universe{matrix.AxisServer: ts, matrix.AxisClient: {m.client.Name}, matrix.AxisCase: cs}
}

// OwnData implements suite.Matrix.
func (m *Matrix) OwnData() bool { return m.replay == nil }

// Images implements suite.Matrix.
func (m *Matrix) Images() []string {
	return quicinterop.ImageNames(append([]quicinterop.Impl{m.client}, m.targets...), "sim", "tshark")
}

// Columns implements suite.Matrix.
func (m *Matrix) Columns() []matrix.Column {
	out := make([]matrix.Column, len(m.campaigns))
	for i, c := range m.campaigns {
		out[i] = matrix.Column{Name: c.Name, Abbr: c.Abbr}
	}
	return out
}

// Before implements suite.Matrix: a tshark container for the replays' trace checks.
func (m *Matrix) Before(ctx context.Context, r *suite.Run, todo []matrix.Cell) error {
	m.traceTool = &tshark.Tool{Docker: r.Run.Docker}
	if m.replay != nil && len(todo) > 0 {
		return m.traceTool.Serve(ctx, r.Run.Dir, r.Run.Labels())
	}
	return nil
}

// Summary implements suite.Matrix.
func (m *Matrix) Summary(r *suite.Run, results []matrix.Result) any {
	return summarize(r, results)
}

// PrintTable implements suite.Matrix: a line per campaign and each finding.
func (m *Matrix) PrintTable(w io.Writer, r *suite.Run, results []matrix.Result) {
	printTable(w, r, results)
}
