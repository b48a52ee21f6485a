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

// Client is an image with the bench client role: curl (ReferenceClient) or a QUIC stack's own
// client, and the protocols it speaks (manifest alpn.bench; nil: all).
type Client struct {
	Name, Image string
	ALPN        []string
}

// ReferenceClient is the client that speaks every protocol and takes the bench file's curl
// switches; the others are QUIC stacks' own clients, h3 only, timed from their qlog.
const ReferenceClient = "curl"

// Speaks reports whether the client speaks the protocol.
func (c Client) Speaks(p Protocol) bool { return c.ALPN == nil || slices.Contains(c.ALPN, p.ALPN) }

// CellClient is a cell's client name: <client>-<protocol> ("curl-h2", "ngtcp2-h3").
func CellClient(c Client, p Protocol) string { return c.Name + "-" + p.Name }

// ClientsFromManifests lists the images with the bench client role, the reference client first,
// the others by name.
func ClientsFromManifests(ms []*manifest.Manifest) []Client {
	var out []Client
	for _, m := range ms {
		if m.Plays("bench", "client") {
			out = append(out, Client{Name: m.Name, Image: m.Ref(), ALPN: m.ALPN["bench"]})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if ra, rb := out[a].Name == ReferenceClient, out[b].Name == ReferenceClient; ra != rb {
			return ra
		}
		return out[a].Name < out[b].Name
	})
	return out
}

// Plan is what a bench run measures: the selected servers, clients, protocols, profiles and
// sizes, and the repetitions per cell.
type Plan struct {
	Servers     []Server
	Clients     []Client
	Protocols   []Protocol
	Profiles    []Profile
	Sizes       []Size
	Repetitions int
	// CongestionControls the run sweeps (--congestion); none: one pass with each stack's default.
	CongestionControls []string
	// GSO are the UDP GSO modes (on, off) of the servers' QUIC stacks the run sweeps (--gso);
	// none: one pass with each image's default.
	GSO []string
	// HyStart are the HyStart++ modes (on, off) of the servers' QUIC CUBIC the run sweeps
	// (--hystart); none: one pass with each stack's default.
	HyStart []string
}

// Variant is what a server runs with in one of its matrix columns: its congestion control, its
// QUIC stack's UDP GSO mode and its QUIC CUBIC's HyStart++ mode, "" each: the defaults.
type Variant struct{ CC, GSO, HyStart string }

// variants are the congestion controls, GSO modes and HyStart++ modes each server runs with,
// congestion control outer: "" is the stacks' defaults.
func (p *Plan) variants() []Variant {
	var out []Variant
	for _, cc := range orDefault(p.CongestionControls) {
		for _, g := range orDefault(p.GSO) {
			for _, h := range orDefault(p.HyStart) {
				out = append(out, Variant{CC: cc, GSO: g, HyStart: h})
			}
		}
	}
	return out
}

// orDefault is a swept dimension's values, or the one default ("") when it is not swept.
func orDefault(values []string) []string {
	if len(values) == 0 {
		return []string{""}
	}
	return values
}

// gsoPrefix and hystartPrefix mark the GSO and HyStart++ modes in a slot name.
const (
	gsoPrefix     = "gso-"
	hystartPrefix = "hystart-"
)

// Slot is a server's column in the matrix: its name, with "@" and the variant's parts joined by
// "+" when the run sweeps any: the congestion control ("nginx@bbr"), "gso-<mode>"
// ("quic-go@gso-off"), "hystart-<mode>" ("ngtcp2@cubic+hystart-off").
func Slot(server string, v Variant) string {
	var parts []string
	if v.CC != "" {
		parts = append(parts, v.CC)
	}
	if v.GSO != "" {
		parts = append(parts, gsoPrefix+v.GSO)
	}
	if v.HyStart != "" {
		parts = append(parts, hystartPrefix+v.HyStart)
	}
	if len(parts) == 0 {
		return server
	}
	return server + "@" + strings.Join(parts, "+")
}

// AllSlots are every column the servers can have: each alone and with each algorithm, GSO mode
// and HyStart++ mode, alone and combined.
func AllSlots(servers []Server, ccs, gsos, hystarts []string) []string {
	var out []string
	for _, s := range servers {
		for _, cc := range append([]string{""}, ccs...) {
			for _, g := range append([]string{""}, gsos...) {
				for _, h := range append([]string{""}, hystarts...) {
					out = append(out, Slot(s.Name, Variant{CC: cc, GSO: g, HyStart: h}))
				}
			}
		}
	}
	return out
}

// SplitSlot is Slot's inverse.
func SplitSlot(slot string) (string, Variant) {
	server, rest, _ := strings.Cut(slot, "@")
	var v Variant
	for _, part := range strings.Split(rest, "+") {
		if g, ok := strings.CutPrefix(part, gsoPrefix); ok {
			v.GSO = g
		} else if h, ok := strings.CutPrefix(part, hystartPrefix); ok {
			v.HyStart = h
		} else {
			v.CC = part
		}
	}
	return server, v
}

// Runs reports whether the cell's protocol runs in the variant, and if not why: the GSO and
// HyStart++ switches are the QUIC stack's, so their sweeps run no TCP cells (the kernel sends
// TCP the same way in every such column; they would only measure the same thing twice).
func (v Variant) Runs(p Protocol) (bool, string) {
	if v.GSO != "" && p.Transport != "udp" {
		return false, fmt.Sprintf("--gso switches the QUIC stack's UDP GSO: %s over TCP is not part of a GSO sweep (run it without --gso)", p.Name)
	}
	if v.HyStart != "" && p.Transport != "udp" {
		return false, fmt.Sprintf("--hystart switches the QUIC stack's HyStart++: %s over TCP is not part of a HyStart++ sweep "+
			"(Linux's CUBIC HyStart is a host-wide module parameter)", p.Name)
	}
	return true, ""
}

// Cells lists the matrix's cells: servers (each congestion control and GSO mode in turn) outer,
// then protocols, then the clients that speak them, then profiles. The client is
// <client>-<protocol>, the case the profile.
func (p *Plan) Cells() []matrix.Cell {
	var out []matrix.Cell
	for _, s := range p.Servers {
		for _, v := range p.variants() {
			for _, cc := range p.clientCells() {
				for _, prof := range p.Profiles {
					out = append(out, matrix.Cell{Server: Slot(s.Name, v), Client: cc.name, Case: prof.Name, Abbr: prof.Name})
				}
			}
		}
	}
	return out
}

// clientCell is a client with one protocol it speaks: a client of the matrix.
type clientCell struct {
	name     string
	client   Client
	protocol Protocol
}

// clientCells are the plan's clients with each protocol they speak, protocols outer.
func (p *Plan) clientCells() []clientCell {
	var out []clientCell
	for _, pr := range p.Protocols {
		for _, c := range p.Clients {
			if c.Speaks(pr) {
				out = append(out, clientCell{CellClient(c, pr), c, pr})
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
// and so is a TCP cell of a GSO sweep (Variant.Runs); and a cell's typical seconds are its repetitions' topologies plus its downloads at the
// profile's rate (rates: down rate in bit/s per profile, 0 unknown).
func (p *Plan) PlanCells(rates map[string]int64) []matrix.PlanCell {
	var out []matrix.PlanCell
	for _, c := range p.Cells() {
		s, _, pr, prof, v := p.lookup(c)
		ok, _ := s.Serves(pr)
		if runs, _ := v.Runs(pr); !runs {
			ok = false
		}
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

// lookup is a cell's server, client, protocol, profile and variant (congestion control and GSO
// mode, "": default).
func (p *Plan) lookup(c matrix.Cell) (Server, Client, Protocol, Profile, Variant) {
	var s Server
	var cl Client
	var pr Protocol
	var prof Profile
	name, v := SplitSlot(c.Server)
	for _, x := range p.Servers {
		if x.Name == name {
			s = x
		}
	}
	for _, x := range p.clientCells() {
		if x.name == c.Client {
			cl, pr = x.client, x.protocol
		}
	}
	for _, x := range p.Profiles {
		if x.Name == c.Case {
			prof = x
		}
	}
	return s, cl, pr, prof, v
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

// ClientNames are the cells' client names (<client>-<protocol>), in protocol order.
func (p *Plan) ClientNames() []string {
	var out []string
	for _, c := range p.clientCells() {
		out = append(out, c.name)
	}
	return out
}

// AllClientNames are every client name a bench cell can have: each client with each protocol it
// speaks (the baseline's universe).
func AllClientNames(clients []Client, protocols []Protocol) []string {
	return (&Plan{Clients: clients, Protocols: protocols}).ClientNames()
}

// ServerNames are the matrix's server columns (a server per congestion control and GSO mode
// when swept).
func (p *Plan) ServerNames() []string {
	var out []string
	for _, s := range p.Servers {
		for _, v := range p.variants() {
			out = append(out, Slot(s.Name, v))
		}
	}
	return out
}
