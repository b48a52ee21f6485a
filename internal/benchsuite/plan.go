package benchsuite

import (
	"fmt"
	"path/filepath"
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
	// Switches are the QUIC_CC, QUIC_GSO and QUIC_HYSTART values its manifest declares;
	// Manifest is that file ("": an image given by --image, which declares none).
	Switches manifest.Switches
	Manifest string
}

// Serves reports whether the server serves the protocol, and if not why.
func (s Server) Serves(p Protocol) (bool, string) {
	if s.ALPN == nil || slices.Contains(s.ALPN, p.ALPN) {
		return true, ""
	}
	return false, fmt.Sprintf("the server does not serve %s (manifest alpn.bench: %v)", p.ALPN, s.ALPN)
}

// Takes reports whether the server's QUIC stack takes the variant's switches in a cell of the
// protocol, and if not why (its manifest's field). A QUIC cell passes them to the server
// (QUIC_CC, QUIC_GSO, QUIC_HYSTART; Layout, a TCP cell none), and the image answers a value it
// cannot do with 127; the manifest says beforehand which it can, so such a cell is unsupported
// here, in the plan, and a 127 at run time stays what it is: a regression.
func (s Server) Takes(v Variant, p Protocol) (bool, string) {
	if p.Transport != "udp" {
		return true, ""
	}
	ok, why := s.Switches.Admits(v.CC, v.GSO, v.HyStart)
	switch {
	case ok:
		return true, ""
	case s.Manifest == "":
		return false, "not declared: an image given by --image has no manifest: " + why
	}
	return false, "not declared: " + s.Manifest + ": " + why
}

// ServersFromManifests lists the images with the bench server role, by name.
func ServersFromManifests(ms []*manifest.Manifest) []Server {
	var out []Server
	for _, m := range ms {
		if m.Plays("bench", "server") {
			s := Server{Name: m.Name, Image: m.Ref(), ALPN: m.ALPN["bench"], Switches: m.Switches}
			if m.Dir != "" { // named from the checkout, as a reason in the results reads best
				s.Manifest = filepath.Join(filepath.Base(filepath.Dir(m.Dir)), m.Name, manifest.FileName)
			}
			out = append(out, s)
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

// The bench cells' own axes: the protocol the client speaks, and the server's variant (its
// congestion control, GSO and HyStart++ modes when the run sweeps them; none: the defaults).
const (
	AxisProtocol = "protocol"
	AxisVariant  = "variant"
)

// Name is the variant's parts joined by "+" ("cubic+gso-off"), "" for the defaults.
func (v Variant) Name() string {
	_, name, _ := strings.Cut(Slot("", v), "@")
	return name
}

// cell is a bench cell: server, client, case = the profile, protocol and variant as axes.
func cell(s Server, cl Client, p Protocol, prof Profile, v Variant) matrix.Cell {
	axes := map[string]string{AxisProtocol: p.Name}
	if n := v.Name(); n != "" {
		axes[AxisVariant] = n
	}
	return matrix.Cell{Server: s.Name, Client: cl.Name, Case: prof.Name, Abbr: prof.Name, Axes: axes}
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

// PlanCells lists the matrix's cells: servers (each variant in turn) outer, then protocols,
// then the clients that speak them, then profiles. A protocol the server does not serve is
// skipped, and so is a TCP cell of a GSO or HyStart++ sweep (Variant.Runs) and a QUIC cell whose
// switches the server's manifest does not declare (Server.Takes). Every repetition runs
// and is recorded; a repetition's typical seconds are its topology plus its downloads at the
// profile's rate (rates: down rate in bit/s per profile, 0 unknown).
func (p *Plan) PlanCells(rates map[string]int64) []matrix.PlanCell {
	var out []matrix.PlanCell
	for _, s := range p.Servers {
		for _, v := range p.variants() {
			for _, cc := range p.clientCells() {
				for _, prof := range p.Profiles {
					ok, why := s.Serves(cc.protocol)
					if runs, w := v.Runs(cc.protocol); ok && !runs {
						ok, why = false, w
					}
					if takes, w := s.Takes(v, cc.protocol); ok && !takes {
						ok, why = false, w
					}
					if ok && len(p.SizesOn(prof)) == 0 {
						ok, why = false, "the profile measures none of the sizes: "+prof.Why
					}
					secs := 0.0
					for _, size := range p.SizesOn(prof) {
						secs += transferTime(size.Bytes, rates[prof.Name]).Seconds() * 1.5
					}
					out = append(out, matrix.PlanCell{Cell: cell(s, cc.client, cc.protocol, prof, v), Skip: !ok, Why: why,
						Policy: matrix.Policy{Mode: matrix.RecordEvery, N: p.Repetitions}, TypicalSeconds: secs + repOverheadSeconds})
				}
			}
		}
	}
	return out
}

// repOverheadSeconds is a repetition's topology (sim, server, client up; fence; down) on this
// kind of machine, for the plan's estimate.
const repOverheadSeconds = 12

// lookup is a cell's server, client, protocol, profile and variant.
func (p *Plan) lookup(c matrix.Cell) (Server, Client, Protocol, Profile, Variant) {
	var s Server
	var cl Client
	var pr Protocol
	var prof Profile
	_, v := SplitSlot("@" + c.Get(AxisVariant))
	for _, x := range p.Servers {
		if x.Name == c.Server {
			s = x
		}
	}
	for _, x := range p.clientCells() {
		if x.client.Name == c.Client && x.protocol.Name == c.Get(AxisProtocol) {
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

// ClientNames are the cells' clients with their protocols (<client>-<protocol>), in protocol
// order: what the run's first line names.
func (p *Plan) ClientNames() []string {
	var out []string
	for _, c := range p.clientCells() {
		out = append(out, c.name)
	}
	return out
}

// VariantNames are every variant a server can run with (the defaults, "", first): each
// algorithm, GSO mode and HyStart++ mode, alone and combined.
func VariantNames(ccs, gsos, hystarts []string) []string {
	var out []string
	for _, cc := range append([]string{""}, ccs...) {
		for _, g := range append([]string{""}, gsos...) {
			for _, h := range append([]string{""}, hystarts...) {
				out = append(out, Variant{CC: cc, GSO: g, HyStart: h}.Name())
			}
		}
	}
	return out
}

// ServerNames are the servers with each variant the run sweeps ("nginx@bbr"), for result.json.
func (p *Plan) ServerNames() []string {
	var out []string
	for _, s := range p.Servers {
		for _, v := range p.variants() {
			out = append(out, Slot(s.Name, v))
		}
	}
	return out
}
