package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// retry: a client that resets its packet numbers or keeps its original DCID, or a server that
// Retries again after the token, passed on "some later Initial echoes the token".
func TestRetryStrictness(t *testing.T) {
	initial := func(pn int64, dcid, token string) quictrace.Packet {
		p := pkt(quictrace.ClientToServer, quictrace.TypeInitial)
		p.PN, p.DCID, p.Token = pn, dcid, token
		return p
	}
	retry := func(scid, token string) quictrace.Packet {
		p := pkt(quictrace.ServerToClient, quictrace.TypeRetry)
		p.SCID, p.Token = scid, token
		return p
	}
	hs := serverInitial("s1")
	wantPass(t, checkRetry(trace(initial(0, "orig", ""), retry("r1", "t1"), initial(1, "r1", "t1"), hs)))
	// A stateless server answers a retransmitted first Initial with a second Retry: allowed.
	wantPass(t, checkRetry(trace(initial(0, "orig", ""), initial(1, "orig", ""), retry("r1", "t1"), retry("r2", "t2"), initial(2, "r1", "t1"), hs)))
	wantFail(t, checkRetry(trace(initial(0, "orig", ""), retry("r1", "t1"), initial(0, "r1", "t1"), hs)), "packet numbers were reset")
	wantFail(t, checkRetry(trace(initial(0, "orig", ""), retry("r1", "t1"), initial(1, "orig", "t1"), hs)), "want the Retry's SCID")
	wantFail(t, checkRetry(trace(initial(0, "orig", ""), retry("r1", "t1"), initial(1, "r1", "t1"), retry("r2", "t2"), initial(2, "r2", "t2"), hs)), "token was not accepted")
}
