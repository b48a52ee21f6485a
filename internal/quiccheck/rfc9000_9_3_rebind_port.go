package quiccheck

import (
	"fmt"
	"net"

	"github.com/wirelab/wirelab/internal/quictrace"
)

var rebindPort = Check{
	Name:        "rebind-port",
	Requirement: "RFC 9000 §9.3, §8.2",
	Reads:       WholeTrace,
	Description: "the client's address changed; the server's first datagram on every new path is a PATH_CHALLENGE, answered on that path",
	Run:         checkRebindPort,
}

// checkRebindPort (rebind-port): the client's address changed at least once, and the server
// validated every new path (its PATH_CHALLENGE answered by a matching PATH_RESPONSE on that path).
func checkRebindPort(t *quictrace.Trace) Result { return checkRebind("rebind-port", t, false) }

func checkRebind(name string, t *quictrace.Trace, addr bool) Result {
	ps := netPaths(t)
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
		if closingOnly(t, p) {
			continue // the client's last packets (CONNECTION_CLOSE) left from a new port: nothing to validate
		}
		if !validated(t, p, quictrace.ServerToClient) {
			return fail(name, "new path %s -> %s not validated by the server (no PATH_CHALLENGE answered by a matching PATH_RESPONSE)", p.Client, p.Server)
		}
		if r, ok := serverChallengesFirst(name, t, p); !ok {
			return r
		}
	}
	return pass(name, "%d new path(s) from %d client IP(s), each validated by the server, its first packet there a PATH_CHALLENGE", len(ps)-1, len(ips))
}

// serverChallengesFirst is upstream's rebind rule: the server's first datagram to a new client
// address carries a PATH_CHALLENGE (RFC 9000 §9.3: a server that sends to an unvalidated
// address starts validating it), not data sent there on trust.
func serverChallengesFirst(name string, t *quictrace.Trace, p netPath) (Result, bool) {
	for i := range t.Datagrams {
		d := &t.Datagrams[i]
		if d.Dir != quictrace.ServerToClient || !p.on(d) {
			continue
		}
		var types []string
		for _, pk := range d.Packets {
			for _, f := range pk.Frames {
				if f.Type == quictrace.FramePathChallenge {
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
func closingOnly(t *quictrace.Trace, p netPath) bool {
	for _, d := range t.Datagrams {
		if d.Dir != quictrace.ClientToServer || !p.on(&d) {
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
