package quiccheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/tshark/tsharktest"
)

// The real Version Negotiation packet parses with its list, and each rule of the check fails when
// that one field of the real trace is made wrong (a copy; the cached fixture stays intact).
func TestVersionNegotiationFields(t *testing.T) {
	r := tsharktest.Need(t)
	good := fixture(t, r, "versionnegotiation")
	vn := good.Filter(func(p *quictrace.Packet) bool { return p.Type == quictrace.TypeVersionNegotiation })
	if len(vn) != 1 || vn[0].Dir != quictrace.ServerToClient || vn[0].Version != 0 || !slices.Contains(vn[0].SupportedVersions, quictrace.Version1) {
		t.Fatalf("Version Negotiation packets: %+v", vn)
	}
	for _, c := range []struct {
		name, want string
		edit       func(p *quictrace.Packet)
	}{
		{"scid not echoed", "SCID", func(p *quictrace.Packet) { p.SCID = "00" + p.SCID }},
		{"dcid not echoed", "DCID", func(p *quictrace.Packet) { p.DCID = "00" }},
		{"no versions", "lists no supported version", func(p *quictrace.Packet) { p.SupportedVersions = nil }},
		{"lists the client's version", "lists the client's version", func(p *quictrace.Packet) {
			p.SupportedVersions = append(p.SupportedVersions, 0x1a2a3a4a)
		}},
		{"new attempt in an unlisted version", "not one of", func(p *quictrace.Packet) { p.SupportedVersions = []uint32{quictrace.Version2} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := checkVersionNegotiation(editVN(good, c.edit))
			if res.OK() || !strings.Contains(res.Reason, c.want) {
				t.Errorf("got %s, want a failure mentioning %q", res, c.want)
			}
		})
	}
}

// editVN returns a copy of tr with edit applied to its Version Negotiation packets.
func editVN(tr *quictrace.Trace, edit func(p *quictrace.Packet)) *quictrace.Trace {
	out := &quictrace.Trace{Datagrams: make([]quictrace.Datagram, len(tr.Datagrams))}
	for i, d := range tr.Datagrams {
		d.Packets = slices.Clone(d.Packets)
		for j := range d.Packets {
			if d.Packets[j].Type == quictrace.TypeVersionNegotiation {
				d.Packets[j].SupportedVersions = slices.Clone(d.Packets[j].SupportedVersions)
				edit(&d.Packets[j])
			}
		}
		out.Datagrams[i] = d
	}
	return out
}
