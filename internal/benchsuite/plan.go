package benchsuite

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
)

// Server is an image with the bench server role.
type Server struct {
	Name, Image string
	ALPN        []string // manifest alpn.bench: what it serves; nil: all
}

// Serves reports whether the server serves the protocol, and if not why.
func (s Server) Serves(p Protocol) (bool, string) {
	if s.ALPN == nil || slices.Contains(s.ALPN, p.ALPN) {
		return true, ""
	}
	return false, fmt.Sprintf("the server does not serve %s (manifest alpn.bench: %v)", p.ALPN, s.ALPN)
}

// ServersFromManifests lists the images with the bench server role, by name.
func ServersFromManifests(ms []*manifest.Manifest) []Server {
	var out []Server
	for _, m := range ms {
		if m.Plays("bench", "server") {
			out = append(out, Server{Name: m.Name, Image: m.Ref(), ALPN: m.ALPN["bench"]})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// ClientImage is the image of the bench client named name (role bench: client).
func ClientImage(ms []*manifest.Manifest, name string) (string, error) {
	for _, m := range ms {
		if m.Name == name && m.Plays("bench", "client") {
			return m.Ref(), nil
		}
	}
	return "", fmt.Errorf("no image %q with the bench client role", name)
}

// Plan is what a bench run measures: the selected servers, protocols, profiles and sizes, and
// the repetitions per cell.
type Plan struct {
	Servers     []Server
	Protocols   []Protocol
	Profiles    []Profile
	Sizes       []Size
	Repetitions int
	// CongestionControls the run sweeps (--congestion); none: one pass with each stack's default.
	CongestionControls []string
}

// slotCCs are the congestion controls each server runs with: "" is the stacks' defaults.
func (p *Plan) slotCCs() []string {
	if len(p.CongestionControls) == 0 {
		return []string{""}
	}
	return p.CongestionControls
}

// Slot is a server's column in the matrix: its name, with "@<algorithm>" when the run sweeps
// congestion controls ("nginx@bbr").
func Slot(server, cc string) string {
	if cc == "" {
		return server
	}
	return server + "@" + cc
}

// AllSlots are every column the servers can have: each alone and with each algorithm.
func AllSlots(servers []Server, ccs []string) []string {
	var out []string
	for _, s := range servers {
		for _, cc := range append([]string{""}, ccs...) {
			out = append(out, Slot(s.Name, cc))
		}
	}
	return out
}

// SplitSlot is Slot's inverse.
func SplitSlot(slot string) (server, cc string) {
	server, cc, _ = strings.Cut(slot, "@")
	return server, cc
}

// Cells lists the matrix's cells: servers (each congestion control in turn) outer, then
// protocols, then profiles. The client is curl-<protocol>, the case the profile.
func (p *Plan) Cells() []matrix.Cell {
	var out []matrix.Cell
	for _, s := range p.Servers {
		for _, cc := range p.slotCCs() {
			for _, pr := range p.Protocols {
				for _, prof := range p.Profiles {
					out = append(out, matrix.Cell{Server: Slot(s.Name, cc), Client: pr.Client(), Case: prof.Name, Abbr: prof.Name})
				}
			}
		}
	}
	return out
}

// SizesOn are the sizes a profile measures.
func (p *Plan) SizesOn(prof Profile) []Size {
	var out []Size
	for _, s := range p.Sizes {
		if prof.Measures(s.Name) {
			out = append(out, s)
		}
	}
	return out
}

// PlanCells is the matrix as the plan sees it: a protocol the server does not serve is skipped,
// and a cell's typical seconds are its repetitions' topologies plus its downloads at the
// profile's rate (rates: down rate in bit/s per profile, 0 unknown).
func (p *Plan) PlanCells(rates map[string]int64) []matrix.PlanCell {
	var out []matrix.PlanCell
	for _, c := range p.Cells() {
		s, pr, prof, _ := p.lookup(c)
		ok, _ := s.Serves(pr)
		secs := 0.0
		for _, size := range p.SizesOn(prof) {
			secs += transferTime(size.Bytes, rates[prof.Name]).Seconds() * 1.5
		}
		out = append(out, matrix.PlanCell{Cell: c, Skip: !ok, Measurement: true,
			TypicalSeconds: float64(p.Repetitions) * (secs + repOverheadSeconds)})
	}
	return out
}

// repOverheadSeconds is a repetition's topology (sim, server, client up; fence; down) on this
// kind of machine, for the plan's estimate.
const repOverheadSeconds = 12

// lookup is a cell's server, protocol, profile and congestion control ("": default).
func (p *Plan) lookup(c matrix.Cell) (Server, Protocol, Profile, string) {
	var s Server
	var pr Protocol
	var prof Profile
	name, cc := SplitSlot(c.Server)
	for _, x := range p.Servers {
		if x.Name == name {
			s = x
		}
	}
	for _, x := range p.Protocols {
		if x.Client() == c.Client {
			pr = x
		}
	}
	for _, x := range p.Profiles {
		if x.Name == c.Case {
			prof = x
		}
	}
	return s, pr, prof, cc
}

// transferTime is how long size bytes take at rate bit/s (rate 0: 1 Gbit/s).
func transferTime(size, rate int64) time.Duration {
	if rate <= 0 {
		rate = 1e9
	}
	return time.Duration(float64(size*8) / float64(rate) * float64(time.Second))
}

// DownloadLimit is curl's --max-time for one download: ten times its time at the profile's rate,
// plus a hundred round trips and half a minute, so lossy and slow profiles finish and a stalled
// transfer still ends.
func DownloadLimit(size, rate int64, rtt time.Duration) time.Duration {
	return 10*transferTime(size, rate) + 100*rtt + 30*time.Second
}

// Columns are the profiles as the terminal's verdict table shows them.
func (p *Plan) Columns() []matrix.Column {
	out := make([]matrix.Column, len(p.Profiles))
	for i, prof := range p.Profiles {
		out[i] = matrix.Column{Name: prof.Name, Abbr: prof.Name}
	}
	return out
}

// Clients are the cells' client names, in protocol order.
func (p *Plan) Clients() []string {
	out := make([]string, len(p.Protocols))
	for i, pr := range p.Protocols {
		out[i] = pr.Client()
	}
	return out
}

// ServerNames are the matrix's server columns (a server per congestion control when swept).
func (p *Plan) ServerNames() []string {
	var out []string
	for _, s := range p.Servers {
		for _, cc := range p.slotCCs() {
			out = append(out, Slot(s.Name, cc))
		}
	}
	return out
}
