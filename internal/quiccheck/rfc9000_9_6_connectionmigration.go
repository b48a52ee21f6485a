package quiccheck

import (
	"net/netip"
	"sort"

	"github.com/wirelab/wirelab/internal/quictrace"
)

var connectionMigration = Check{
	Name:        "connectionmigration",
	Requirement: "RFC 9000 §9.6, §9.5, §8.2",
	Reads:       WholeTrace,
	Description: "the client moves to the server's preferred address and validates that path itself; every new path starts with a new DCID and is validated",
	Run:         checkConnectionMigration,
}

// checkConnectionMigration (connectionmigration): the server offered a preferred_address and
// the client moved to it (RFC 9000 §9.6): a new path to that address, which the CLIENT
// validated (its PATH_CHALLENGE answered on that path, §9.6.1); the client's first packet on
// every new path uses a DCID it had not used on the first path (§9.5), and every new path was
// validated. Without the preferred-address rules a client that ignores the server's address
// and merely changes its own port would pass.
func checkConnectionMigration(t *quictrace.Trace) Result {
	const name = "connectionmigration"
	ps := netPaths(t)
	if len(ps) < 2 {
		return fail(name, "the client used %d path(s), want a migration to a new one", len(ps))
	}
	old := map[string]bool{}
	for _, d := range t.Datagrams {
		if d.Dir == quictrace.ClientToServer && ps[0].on(&d) {
			for _, p := range d.Packets {
				if p.Type == quictrace.Type1RTT {
					old[p.DCID] = true
				}
			}
		}
	}
	for _, p := range ps[1:] {
		d := t.Datagrams[p.First]
		if len(d.Packets) == 0 || old[d.Packets[0].DCID] {
			return fail(name, "the client's first packet on %s reuses DCID %s from the first path", p.Client, d.Packets[0].DCID)
		}
		if !validated(t, p, quictrace.DirUnknown) {
			return fail(name, "new path %s -> %s not validated (no PATH_CHALLENGE answered by a matching PATH_RESPONSE)", p.Client, p.Server)
		}
	}
	pref, r, ok := clientMovedToPreferredAddress(name, t, ps)
	if !ok {
		return r
	}
	return pass(name, "%d new path(s), each starting with a new DCID and validated; the client moved to the preferred address %s and validated it", len(ps)-1, pref.Server)
}

// serverPreferredAddresses returns the preferred_address values in the server's transport
// parameters, normalised.
func serverPreferredAddresses(t *quictrace.Trace) map[netip.AddrPort]bool {
	out := map[netip.AddrPort]bool{}
	for _, p := range t.Filter(func(p *quictrace.Packet) bool { return p.Dir == quictrace.ServerToClient }) {
		for _, m := range p.TLS {
			for _, a := range m.PreferredAddresses {
				if ap, err := netip.ParseAddrPort(a); err == nil {
					out[ap] = true
				}
			}
		}
	}
	return out
}

// clientMovedToPreferredAddress: a new path leads to an address the server offered, and the
// client validated it (RFC 9000 §9.6.1: the client initiates path validation to the preferred
// address; the server merely answers).
func clientMovedToPreferredAddress(name string, t *quictrace.Trace, ps []netPath) (netPath, Result, bool) {
	pref := serverPreferredAddresses(t)
	if len(pref) == 0 {
		return netPath{}, fail(name, "the server's transport parameters carry no preferred_address (not decrypted, or not offered)"), false
	}
	for _, p := range ps[1:] {
		ap, err := netip.ParseAddrPort(p.Server)
		if err != nil || !pref[ap] {
			continue
		}
		if !validated(t, p, quictrace.ClientToServer) {
			return netPath{}, fail(name, "the client did not validate the preferred address path %s -> %s (no client PATH_CHALLENGE answered by the server)", p.Client, p.Server), false
		}
		return p, Result{}, true
	}
	return netPath{}, fail(name, "no client path to the server's preferred address %v: the client migrated without using it", addrList(pref)), false
}

func addrList(m map[netip.AddrPort]bool) []string {
	var out []string
	for a := range m {
		out = append(out, a.String())
	}
	sort.Strings(out)
	return out
}
