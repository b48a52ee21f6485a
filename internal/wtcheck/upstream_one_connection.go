package wtcheck

var oneConnection = register(Check{
	Name:        "one-connection",
	Requirement: "upstream webtransport.md (all sessions on one QUIC connection)",
	Description: "exactly one QUIC handshake: every session of the case shares one connection",
	Run:         checkOneConnection,
})

// checkOneConnection counts handshakes as the upstream runner does: distinct SCIDs of the
// server's Initial packets.
func checkOneConnection(e *Evidence) Result {
	name := "one-connection"
	n := len(e.Trace.Handshakes())
	if n != 1 {
		return fail(name, "%d QUIC handshakes, want exactly 1", n)
	}
	return pass(name, "one QUIC handshake")
}
