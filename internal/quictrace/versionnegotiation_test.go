package quictrace

import (
	"slices"
	"strings"
	"testing"
)

// The real Version Negotiation packet parses with its list, and each rule of the check fails when
// that one field of the real trace is made wrong (a copy; the cached fixture stays intact).
func TestVersionNegotiationFields(t *testing.T) {
	r := needTshark(t)
	good := fixture(t, r, "versionnegotiation")
	vn := good.Filter(func(p *Packet) bool { return p.Type == TypeVersionNegotiation })
	if len(vn) != 1 || vn[0].Dir != ServerToClient || vn[0].Version != 0 || !slices.Contains(vn[0].SupportedVersions, Version1) {
		t.Fatalf("Version Negotiation packets: %+v", vn)
	}
	for _, c := range []struct {
		name, want string
		edit       func(p *Packet)
	}{
		{"scid not echoed", "SCID", func(p *Packet) { p.SCID = "00" + p.SCID }},
		{"dcid not echoed", "DCID", func(p *Packet) { p.DCID = "00" }},
		{"no versions", "lists no supported version", func(p *Packet) { p.SupportedVersions = nil }},
		{"lists the client's version", "lists the client's version", func(p *Packet) {
			p.SupportedVersions = append(p.SupportedVersions, 0x1a2a3a4a)
		}},
		{"new attempt in an unlisted version", "not one of", func(p *Packet) { p.SupportedVersions = []uint32{Version2} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := CheckVersionNegotiation(editVN(good, c.edit))
			if res.OK() || !strings.Contains(res.Reason, c.want) {
				t.Errorf("got %s, want a failure mentioning %q", res, c.want)
			}
		})
	}
}

// editVN returns a copy of tr with edit applied to its Version Negotiation packets.
func editVN(tr *Trace, edit func(p *Packet)) *Trace {
	out := &Trace{Datagrams: make([]Datagram, len(tr.Datagrams))}
	for i, d := range tr.Datagrams {
		d.Packets = slices.Clone(d.Packets)
		for j := range d.Packets {
			if d.Packets[j].Type == TypeVersionNegotiation {
				d.Packets[j].SupportedVersions = slices.Clone(d.Packets[j].SupportedVersions)
				edit(&d.Packets[j])
			}
		}
		out.Datagrams[i] = d
	}
	return out
}
