package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var retry = Check{
	Name:        "retry",
	Requirement: "RFC 9000 §8.1.2, §17.2.5",
	Reads:       LongHeaders,
	Description: "a Retry with a token, echoed to the Retry's SCID by a later client Initial that continues the packet numbers, accepted; 1 handshake",
	Run:         checkRetry,
}

// checkRetry: a Retry packet with a token; the client's next attempt echoes that token to the
// Retry's SCID without resetting its packet numbers; the server accepts it (no further Retry);
// 1 handshake.
func checkRetry(t *quictrace.Trace) Result {
	const name = "retry"
	pk := t.Packets()
	retries := retryIndexes(pk)
	if len(retries) == 0 {
		return fail(name, "no Retry packet from the server")
	}
	for _, i := range retries {
		if pk[i].Token == "" {
			return fail(name, "the Retry packet (frame %d) carries no token", pk[i].Frame)
		}
	}
	ti := tokenInitial(pk, retries)
	if ti < 0 {
		return fail(name, "no client Initial after the Retry carries its %d-byte token", len(pk[retries[0]].Token)/2)
	}
	if r, ok := clientUsesRetrySCID(name, pk, retries, ti); !ok {
		return r
	}
	if r, ok := packetNumbersContinue(name, pk, ti); !ok {
		return r
	}
	if r, ok := noRetryAfterToken(name, pk, retries, ti); !ok {
		return r
	}
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	return pass(name, "Retry with a %d-byte token, echoed in a later client Initial (PN %d) to the Retry's SCID, 1 handshake", len(pk[ti].Token)/2, pk[ti].PN)
}

// retryIndexes returns the indexes of the server's Retry packets in pk.
func retryIndexes(pk []quictrace.Packet) []int {
	var out []int
	for i, p := range pk {
		if p.Type == quictrace.TypeRetry && p.Dir == quictrace.ServerToClient {
			out = append(out, i)
		}
	}
	return out
}

// tokenInitial returns the index of the first client Initial after a Retry that carries one of
// the Retry tokens sent before it, or -1.
func tokenInitial(pk []quictrace.Packet, retries []int) int {
	tokens := map[string]int{}
	next := 0
	for i, p := range pk {
		for next < len(retries) && retries[next] < i {
			tokens[pk[retries[next]].Token] = retries[next]
			next++
		}
		if p.Dir == quictrace.ClientToServer && p.Type == quictrace.TypeInitial && p.Token != "" {
			if _, ok := tokens[p.Token]; ok {
				return i
			}
		}
	}
	return -1
}

// clientUsesRetrySCID: RFC 9000 §17.2.5.2, the client addresses its next Initial to the SCID of
// the Retry whose token it echoes.
func clientUsesRetrySCID(name string, pk []quictrace.Packet, retries []int, ti int) (Result, bool) {
	for _, i := range retries {
		if i < ti && pk[i].Token == pk[ti].Token {
			if pk[ti].DCID != pk[i].SCID {
				return fail(name, "the client Initial with the Retry token (frame %d) goes to DCID %s, want the Retry's SCID %s", pk[ti].Frame, pk[ti].DCID, pk[i].SCID), false
			}
			return Result{}, true
		}
	}
	return Result{}, true
}

// packetNumbersContinue: RFC 9000 §17.2.5.3, a client MUST NOT reset its packet numbers after a
// Retry: the token-carrying Initial has a higher number than every earlier client Initial.
func packetNumbersContinue(name string, pk []quictrace.Packet, ti int) (Result, bool) {
	if pk[ti].PN < 0 {
		return Result{}, true // header not decrypted: nothing to compare
	}
	for _, p := range pk[:ti] {
		if p.Dir == quictrace.ClientToServer && p.Type == quictrace.TypeInitial && p.PN >= pk[ti].PN {
			return fail(name, "the client Initial with the Retry token (frame %d) has packet number %d, not above %d of its Initial in frame %d: packet numbers were reset", pk[ti].Frame, pk[ti].PN, p.PN, p.Frame), false
		}
	}
	return Result{}, true
}

// noRetryAfterToken: once the client echoes a valid token the server must accept the address
// (RFC 9000 §8.1.2) and a client processes at most one Retry (§17.2.5.2). Several Retries
// before the token are fine: a stateless server answers each retransmitted first Initial.
func noRetryAfterToken(name string, pk []quictrace.Packet, retries []int, ti int) (Result, bool) {
	for _, i := range retries {
		if i > ti {
			return fail(name, "the server sent another Retry (frame %d) after the client echoed a token (frame %d): the token was not accepted", pk[i].Frame, pk[ti].Frame), false
		}
	}
	return Result{}, true
}
