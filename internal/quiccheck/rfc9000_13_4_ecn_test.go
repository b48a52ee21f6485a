package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

func TestECNSynthetic(t *testing.T) {
	mk := func(ecn int) *quictrace.Trace {
		tr := &quictrace.Trace{}
		for _, dir := range []quictrace.Direction{quictrace.ClientToServer, quictrace.ServerToClient} {
			d := dg(dir, 100, quictrace.Type1RTT)
			d.ECN = ecn
			d.Packets[0].Frames = []quictrace.Frame{{Type: quictrace.FrameAckECN, StreamID: -1, ECT0: 1, ECT1: 1}}
			tr.Datagrams = append(tr.Datagrams, d)
		}
		return tr
	}
	if r := checkECN(mk(quictrace.ECNECT1)); !r.OK() {
		t.Error(r)
	}
	if r := checkECN(mk(quictrace.ECNNotECT)); r.OK() {
		t.Error(r)
	}
	ce := mk(quictrace.ECNECT0)
	ce.Datagrams = append(ce.Datagrams, quictrace.Datagram{Dir: quictrace.ServerToClient, ECN: quictrace.ECNCE})
	if r := checkECN(ce); r.OK() {
		t.Error(r)
	}
}

// ecn: ACK_ECN frames with all-zero counts (the frame type without reading the marks) passed.
func TestECNCountsReportPeerMarks(t *testing.T) {
	build := func(ect0 uint64) *quictrace.Trace {
		tr := &quictrace.Trace{}
		for _, dir := range []quictrace.Direction{quictrace.ClientToServer, quictrace.ServerToClient} {
			d := dg(dir, 100, quictrace.Type1RTT)
			d.Packets[0].Frames = []quictrace.Frame{{Type: quictrace.FrameAckECN, StreamID: -1, ECT0: ect0}}
			tr.Datagrams = append(tr.Datagrams, d)
		}
		return tr
	}
	wantPass(t, checkECN(build(3)))
	wantFail(t, checkECN(build(0)), "none of the peer's ECT marks were reported")
}
