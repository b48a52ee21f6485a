package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var versionNegotiation = Check{
	Name:        "versionnegotiation",
	Requirement: "RFC 9000 §6, §17.2.1, RFC 8999 §6, RFC 9368 §4",
	Reads:       LongHeaders,
	Description: "a Version Negotiation packet that echoes the client's connection IDs and omits its version, then a handshake in a listed version",
	Run:         checkVersionNegotiation,
}

// checkVersionNegotiation verifies incompatible version negotiation (RFC 9000 §6, RFC 8999 §6,
// RFC 9368 §4) on the trace:
//   - the client's first long header packet uses a version X the server does not support;
//   - the server answers with a Version Negotiation packet that echoes the connection IDs
//     (its DCID = the client's SCID, its SCID = the client's DCID, RFC 9000 §17.2.1) and lists
//     supported versions, none of them X (a client discards a VN packet listing its own
//     version, RFC 9000 §6.2);
//   - the client then starts over with a listed version Y: a later client Initial in Y, a server
//     Initial in Y and a client Handshake packet in Y (the client processed the server's first
//     flight; the downloaded files show the rest).
//
// Upstream's (disabled) check stops at the VN packet's SCID; this one also requires the
// handshake with the negotiated version.
func checkVersionNegotiation(t *quictrace.Trace) Result {
	const name = "versionnegotiation"
	pk := t.Packets()
	first := -1
	for i, p := range pk {
		if p.Dir == quictrace.ClientToServer && p.LongHdr && p.Version != 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return fail(name, "no client long header packet in the trace")
	}
	c := pk[first]
	vn := -1
	for i := first + 1; i < len(pk); i++ {
		if pk[i].Dir == quictrace.ServerToClient && pk[i].Type == quictrace.TypeVersionNegotiation {
			vn = i
			break
		}
	}
	if vn < 0 {
		return fail(name, "no Version Negotiation packet from the server after the client's first packet (version 0x%x, frame %d)", c.Version, c.Frame)
	}
	v := pk[vn]
	switch {
	case v.SCID != c.DCID:
		return fail(name, "Version Negotiation packet (frame %d) SCID %q, want the client's DCID %q", v.Frame, v.SCID, c.DCID)
	case v.DCID != c.SCID:
		return fail(name, "Version Negotiation packet (frame %d) DCID %q, want the client's SCID %q", v.Frame, v.DCID, c.SCID)
	case len(v.SupportedVersions) == 0:
		return fail(name, "Version Negotiation packet (frame %d) lists no supported version", v.Frame)
	}
	listed := map[uint32]bool{}
	for _, sv := range v.SupportedVersions {
		listed[sv] = true
	}
	if listed[c.Version] {
		return fail(name, "Version Negotiation packet (frame %d) lists the client's version 0x%x %s", v.Frame, c.Version, versions(v.SupportedVersions))
	}
	// The new attempt: the first later client Initial, in a listed version.
	var y uint32
	ci := -1
	for i := vn + 1; i < len(pk); i++ {
		if pk[i].Dir == quictrace.ClientToServer && pk[i].Type == quictrace.TypeInitial {
			ci, y = i, pk[i].Version
			break
		}
	}
	if ci < 0 {
		return fail(name, "no client Initial after the Version Negotiation packet (frame %d)", v.Frame)
	}
	if !listed[y] {
		return fail(name, "the client's Initial after Version Negotiation (frame %d) uses 0x%x, not one of %s", pk[ci].Frame, y, versions(v.SupportedVersions))
	}
	var serverInitial, clientHandshake bool
	for _, p := range pk[ci+1:] {
		switch {
		case p.Dir == quictrace.ServerToClient && p.Type == quictrace.TypeInitial && p.Version == y:
			serverInitial = true
		case p.Dir == quictrace.ClientToServer && p.Type == quictrace.TypeHandshake && p.Version == y && serverInitial:
			clientHandshake = true
		}
	}
	if !serverInitial || !clientHandshake {
		return fail(name, "no handshake in 0x%x after Version Negotiation: server Initial %v, client Handshake packet %v", y, serverInitial, clientHandshake)
	}
	return pass(name, "client 0x%x -> Version Negotiation %s with echoed CIDs (frame %d) -> handshake in 0x%x", c.Version, versions(v.SupportedVersions), v.Frame, y)
}
