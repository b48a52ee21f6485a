package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var ipv6 = Check{
	Name:        "ipv6",
	Requirement: "RFC 9000 §9 (the path is IPv6)",
	Reads:       WholeTrace,
	Description: "1 handshake in version 1, and no server datagram over IPv4",
	Run:         checkIPv6,
}

// checkIPv6 (ipv6): the transfer checks, and the server sent no QUIC over IPv4.
func checkIPv6(t *quictrace.Trace) Result {
	const name = "ipv6"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	n := 0
	for _, d := range t.Datagrams {
		if d.Dir == quictrace.ServerToClient && !d.IPv6 {
			n++
		}
	}
	if n > 0 {
		return fail(name, "the server sent %d QUIC datagrams over IPv4, want 0", n)
	}
	return pass(name, "1 handshake, v1, all server datagrams over IPv6")
}
