package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var ecn = Check{
	Name:        "ecn",
	Requirement: "RFC 9000 §13.4",
	Reads:       WholeTrace,
	Description: "ECT-marked datagrams both ways, no CE, and ACK_ECN frames from each side that count the peer's marks",
	Run:         checkECN,
}

// checkECN: ECT(0)/ECT(1)-marked datagrams in both directions, no CE, and ACK frames with ECN
// counts from both sides.
func checkECN(t *quictrace.Trace) Result {
	const name = "ecn"
	ect := map[quictrace.Direction]int{}
	ackECN := map[quictrace.Direction]int{}
	ce := 0
	for _, d := range t.Datagrams {
		switch d.ECN {
		case quictrace.ECNECT0, quictrace.ECNECT1:
			ect[d.Dir]++
		case quictrace.ECNCE:
			ce++
		}
		for _, p := range d.Packets {
			for _, f := range p.Frames {
				if f.Type == quictrace.FrameAckECN {
					ackECN[d.Dir]++
				}
			}
		}
	}
	switch {
	case ect[quictrace.ClientToServer] == 0 || ect[quictrace.ServerToClient] == 0:
		return fail(name, "ECT-marked datagrams: %d client->server, %d server->client; want both > 0", ect[quictrace.ClientToServer], ect[quictrace.ServerToClient])
	case ce > 0:
		return fail(name, "%d CE-marked datagrams, want none on this path", ce)
	case ackECN[quictrace.ClientToServer] == 0 || ackECN[quictrace.ServerToClient] == 0:
		return fail(name, "ACK frames with ECN counts: %d from the client, %d from the server; want both > 0", ackECN[quictrace.ClientToServer], ackECN[quictrace.ServerToClient])
	}
	for _, dir := range []quictrace.Direction{quictrace.ClientToServer, quictrace.ServerToClient} {
		if r, ok := ackECNReportsPeerMarks(name, t, dir); !ok {
			return r
		}
	}
	return pass(name, "ECT marks %d/%d datagrams (c->s/s->c), no CE, ACK_ECN frames %d/%d", ect[quictrace.ClientToServer], ect[quictrace.ServerToClient], ackECN[quictrace.ClientToServer], ackECN[quictrace.ServerToClient])
}

// ackECNReportsPeerMarks: RFC 9000 §13.4.1, an endpoint counts the ECN codepoints it received;
// the ACK_ECN frames dir sends must count some packet in a codepoint the peer marked with.
// ACK_ECN frames with all-zero counts (ECN read from nowhere) would otherwise pass.
func ackECNReportsPeerMarks(name string, t *quictrace.Trace, dir quictrace.Direction) (Result, bool) {
	peerECT0, peerECT1 := false, false
	var ect0, ect1 uint64
	for _, d := range t.Datagrams {
		switch {
		case d.Dir != dir && d.ECN == quictrace.ECNECT0:
			peerECT0 = true
		case d.Dir != dir && d.ECN == quictrace.ECNECT1:
			peerECT1 = true
		}
		if d.Dir != dir {
			continue
		}
		for _, p := range d.Packets {
			for _, f := range p.Frames {
				if f.Type == quictrace.FrameAckECN {
					ect0, ect1 = max(ect0, f.ECT0), max(ect1, f.ECT1)
				}
			}
		}
	}
	if (peerECT0 && ect0 > 0) || (peerECT1 && ect1 > 0) {
		return Result{}, true
	}
	return fail(name, "%s ACK_ECN frames count ECT(0) %d, ECT(1) %d: none of the peer's ECT marks were reported", dir, ect0, ect1), false
}
