package quictrace

import (
	"bytes"
	"fmt"
	"net"
	"net/netip"
	"sort"
)

// Path is one client/server address pair seen in client->server datagrams, in order of first use.
type Path struct {
	Client, Server string // ip:port
	First          int    // index into Trace.Datagrams of the path's first client datagram
}

// Paths lists the network paths the client used, in order of first use.
func (t *Trace) Paths() []Path {
	seen := map[[2]string]bool{}
	var out []Path
	for i, d := range t.Datagrams {
		if d.Dir != ClientToServer {
			continue
		}
		k := [2]string{d.Src, d.Dst}
		if !seen[k] {
			seen[k] = true
			out = append(out, Path{Client: d.Src, Server: d.Dst, First: i})
		}
	}
	return out
}

func (p Path) on(d *Datagram) bool {
	return (d.Dir == ClientToServer && d.Src == p.Client && d.Dst == p.Server) ||
		(d.Dir == ServerToClient && d.Src == p.Server && d.Dst == p.Client)
}

// validated reports whether a PATH_CHALLENGE sent on p by the wanted side (DirUnknown: either) was
// answered by a PATH_RESPONSE with the same data on p.
func (t *Trace) validated(p Path, by Direction) bool {
	var challenges [][]byte
	for i := range t.Datagrams {
		d := &t.Datagrams[i]
		if !p.on(d) {
			continue
		}
		for _, pk := range d.Packets {
			for _, f := range pk.Frames {
				switch {
				case f.Type == FramePathChallenge && (by == DirUnknown || d.Dir == by):
					challenges = append(challenges, f.Data)
				case f.Type == FramePathResponse && (by == DirUnknown || d.Dir != by):
					for _, c := range challenges {
						if bytes.Equal(c, f.Data) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// CheckRebindPort (rebind-port): the client's address changed at least once, and the server
// validated every new path (its PATH_CHALLENGE answered by a matching PATH_RESPONSE on that path).
func CheckRebindPort(t *Trace) Result { return checkRebind("rebind-port", t, false) }

// CheckRebindAddr (rebind-addr): like rebind-port, and the server saw more than one client IP.
func CheckRebindAddr(t *Trace) Result { return checkRebind("rebind-addr", t, true) }

func checkRebind(name string, t *Trace, addr bool) Result {
	ps := t.Paths()
	if len(ps) < 2 {
		return fail(name, "the client used %d path(s), want a rebinding to a new one", len(ps))
	}
	ips := map[string]bool{}
	for _, p := range ps {
		h, _, _ := net.SplitHostPort(p.Client)
		ips[h] = true
	}
	if addr && len(ips) < 2 {
		return fail(name, "%d paths but all from 1 client IP, want an address change", len(ps))
	}
	for _, p := range ps[1:] {
		if t.closingOnly(p) {
			continue // the client's last packets (CONNECTION_CLOSE) left from a new port: nothing to validate
		}
		if !t.validated(p, ServerToClient) {
			return fail(name, "new path %s -> %s not validated by the server (no PATH_CHALLENGE answered by a matching PATH_RESPONSE)", p.Client, p.Server)
		}
		if r, ok := serverChallengesFirst(name, t, p); !ok {
			return r
		}
	}
	return pass(name, "%d new path(s) from %d client IP(s), each validated by the server, its first packet there a PATH_CHALLENGE", len(ps)-1, len(ips))
}

// CheckConnectionMigration (connectionmigration): the server offered a preferred_address and
// the client moved to it (RFC 9000 §9.6): a new path to that address, which the CLIENT
// validated (its PATH_CHALLENGE answered on that path, §9.6.1); the client's first packet on
// every new path uses a DCID it had not used on the first path (§9.5), and every new path was
// validated. Without the preferred-address rules a client that ignores the server's address
// and merely changes its own port would pass.
func CheckConnectionMigration(t *Trace) Result {
	const name = "connectionmigration"
	ps := t.Paths()
	if len(ps) < 2 {
		return fail(name, "the client used %d path(s), want a migration to a new one", len(ps))
	}
	old := map[string]bool{}
	for _, d := range t.Datagrams {
		if d.Dir == ClientToServer && ps[0].on(&d) {
			for _, p := range d.Packets {
				if p.Type == Type1RTT {
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
		if !t.validated(p, DirUnknown) {
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
func (t *Trace) serverPreferredAddresses() map[netip.AddrPort]bool {
	out := map[netip.AddrPort]bool{}
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ServerToClient }) {
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
func clientMovedToPreferredAddress(name string, t *Trace, ps []Path) (Path, Result, bool) {
	pref := t.serverPreferredAddresses()
	if len(pref) == 0 {
		return Path{}, fail(name, "the server's transport parameters carry no preferred_address (not decrypted, or not offered)"), false
	}
	for _, p := range ps[1:] {
		ap, err := netip.ParseAddrPort(p.Server)
		if err != nil || !pref[ap] {
			continue
		}
		if !t.validated(p, ClientToServer) {
			return Path{}, fail(name, "the client did not validate the preferred address path %s -> %s (no client PATH_CHALLENGE answered by the server)", p.Client, p.Server), false
		}
		return p, Result{}, true
	}
	return Path{}, fail(name, "no client path to the server's preferred address %v: the client migrated without using it", addrList(pref)), false
}

func addrList(m map[netip.AddrPort]bool) []string {
	var out []string
	for a := range m {
		out = append(out, a.String())
	}
	sort.Strings(out)
	return out
}

// CheckIPv6 (ipv6): the transfer checks, and the server sent no QUIC over IPv4.
func CheckIPv6(t *Trace) Result {
	const name = "ipv6"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	n := 0
	for _, d := range t.Datagrams {
		if d.Dir == ServerToClient && !d.IPv6 {
			n++
		}
	}
	if n > 0 {
		return fail(name, "the server sent %d QUIC datagrams over IPv4, want 0", n)
	}
	return pass(name, "1 handshake, v1, all server datagrams over IPv6")
}

// CheckLongRTT (longrtt): the handshake checks, and the client sent its ClientHello at least
// twice (a CRYPTO frame at offset 0 in >= 2 client Initials: it retransmitted).
func CheckLongRTT(t *Trace) Result {
	const name = "longrtt"
	if r := CheckHandshake(t); !r.OK() {
		return Result{Check: name, Verdict: Fail, Reason: r.Reason}
	}
	n := 0
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ClientToServer && p.Type == TypeInitial }) {
		for _, f := range p.Frames {
			if f.Type == FrameCrypto && f.Offset == 0 {
				n++
				break
			}
		}
	}
	if n < 2 {
		return fail(name, "%d client Initial(s) carry the ClientHello, want >= 2 (a retransmission)", n)
	}
	return pass(name, "1 handshake, ClientHello sent in %d client Initials", n)
}

// HandshakeCount returns a check for exactly n handshakes with v1 server Initials
// (handshakeloss and handshakecorruption: n = 50).
func HandshakeCount(name string, n int) Check {
	return func(t *Trace) Result {
		if r, ok := checkVersionAndCount(name, t, n); !ok {
			return r
		}
		return pass(name, "%d handshakes, server Initials v1", n)
	}
}

// serverChallengesFirst is upstream's rebind rule: the server's first datagram to a new client
// address carries a PATH_CHALLENGE (RFC 9000 §9.3: a server that sends to an unvalidated
// address starts validating it), not data sent there on trust.
func serverChallengesFirst(name string, t *Trace, p Path) (Result, bool) {
	for i := range t.Datagrams {
		d := &t.Datagrams[i]
		if d.Dir != ServerToClient || !p.on(d) {
			continue
		}
		var types []string
		for _, pk := range d.Packets {
			for _, f := range pk.Frames {
				if f.Type == FramePathChallenge {
					return Result{}, true
				}
				types = append(types, fmt.Sprintf("0x%x", f.Type))
			}
		}
		return fail(name, "the server's first datagram to new path %s (#%d) carries no PATH_CHALLENGE (frames %v)", p.Client, i+1, types), false
	}
	return Result{}, true // nothing sent there at all: validated() already failed such a path
}

// closingOnly reports whether everything the client sent on path p was CONNECTION_CLOSE (and
// PADDING): a connection that ends right after a rebinding has no path left to validate.
func (t *Trace) closingOnly(p Path) bool {
	for _, d := range t.Datagrams {
		if d.Dir != ClientToServer || !p.on(&d) {
			continue
		}
		for _, pk := range d.Packets {
			for _, f := range pk.Frames {
				if f.Type != 0x00 && f.Type != 0x1c && f.Type != 0x1d {
					return false
				}
			}
		}
	}
	return true
}
