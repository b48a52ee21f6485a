package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var keyUpdate = Check{
	Name:        "keyupdate",
	Requirement: "RFC 9001 §6",
	Reads:       WholeTrace,
	Description: "1 handshake in version 1; key phase 1 packets both ways, the client's first",
	Run:         checkKeyUpdate,
}

// checkKeyUpdate: 1 handshake, v1; 1-RTT packets with key phase 1 from both sides, and the
// CLIENT initiated the update (it is the side told TESTCASE=keyupdate; the server runs
// "transfer"): its first key phase 1 packet precedes the server's, which is the response RFC
// 9001 §6.2 requires. A server that updates on its own would otherwise pass for a client that
// never does.
func checkKeyUpdate(t *quictrace.Trace) Result {
	const name = "keyupdate"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	n := map[quictrace.Direction]int{}
	first := map[quictrace.Direction]int{} // frame of each side's first key phase 1 packet
	for _, p := range t.Filter(func(p *quictrace.Packet) bool { return p.Type == quictrace.Type1RTT && p.KeyPhase == 1 && p.Decrypted }) {
		if n[p.Dir] == 0 {
			first[p.Dir] = p.Frame
		}
		n[p.Dir]++
	}
	if n[quictrace.ClientToServer] == 0 || n[quictrace.ServerToClient] == 0 {
		return fail(name, "key phase 1 packets: %d from the client, %d from the server; want both > 0", n[quictrace.ClientToServer], n[quictrace.ServerToClient])
	}
	if r, ok := clientInitiatedKeyUpdate(name, first); !ok {
		return r
	}
	return pass(name, "the client initiated (key phase 1 first in frame %d, the server followed in frame %d); key phase 1 packets: %d from the client, %d from the server",
		first[quictrace.ClientToServer], first[quictrace.ServerToClient], n[quictrace.ClientToServer], n[quictrace.ServerToClient])
}

// clientInitiatedKeyUpdate: the client's first key phase 1 packet comes before the server's.
func clientInitiatedKeyUpdate(name string, first map[quictrace.Direction]int) (Result, bool) {
	if first[quictrace.ServerToClient] < first[quictrace.ClientToServer] {
		return fail(name, "the server initiated the key update (key phase 1 in frame %d, the client's first in frame %d); the client must", first[quictrace.ServerToClient], first[quictrace.ClientToServer]), false
	}
	return Result{}, true
}
