package lifecycle

import "testing"

// A peer's own end is its success only where the layout says so: a measurement's competing flow
// (Ends) in any way, a WebTransport server (Finishes) with exit 0 only, a fuzzed server (Judged)
// in any way, since its death is the verdict's evidence; every other exit of a peer is a death
// that fails the cell.
func TestFinishedWell(t *testing.T) {
	for _, tc := range []struct {
		p    Peer
		code string
		want bool
	}{
		{Peer{Service: "server"}, "0", false},
		{Peer{Service: "server"}, "1", false},
		{Peer{Service: "iperf_server", Ends: true}, "1", true},
		{Peer{Service: "server", Finishes: true}, "0", true},
		{Peer{Service: "server", Finishes: true}, "1", false},
		{Peer{Service: "server", Finishes: true}, "127", false},
		{Peer{Service: "server", Finishes: true}, "137", false},
		{Peer{Service: "server", Judged: true}, "139", true},
	} {
		if got := tc.p.finishedWell(tc.code); got != tc.want {
			t.Errorf("%+v exit %s: finishedWell %v, want %v", tc.p, tc.code, got, tc.want)
		}
	}
}
