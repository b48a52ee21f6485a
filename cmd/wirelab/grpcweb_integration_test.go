package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The gRPC-web smoke CI runs: three interop cases on the direct chain, through wirelab's
// converters (ping_pong needs full duplex over the HTTP/1.1 hop), and through an origin that
// appends an empty trailer frame to trailers-only answers — there unimplemented_method must
// fail (the client reads UNKNOWN, not UNIMPLEMENTED) while the same case passed direct.
func TestIntegrationGrpcwebSmoke(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-grpcweb"), t.TempDir()
	chains, _ := filepath.Abs("testdata/grpcweb-chains-broken.yml")
	code, log := wirelab(t, bin, "grpcweb", "--run-id", id, "--out", out, "-j", "2", "--seed", "7",
		"--chains-file", chains, "--cases", "empty_unary,ping_pong,unimplemented_method")
	t.Log(log)
	assertNothingLeft(t, id)
	dir := filepath.Join(out, "grpcweb", id)
	if cells := readJournal(t, filepath.Join(dir, "results.jsonl")); len(cells) != 9 || code != 1 {
		t.Fatalf("%d cells, exit %d; want 9 cells and exit 1 (the broken origin fails)", len(cells), code)
	}
	data, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	junit := string(data)
	if n := strings.Count(junit, "<failure"); n != 1 {
		t.Errorf("%d failures in junit.xml, want 1 (empty-trailer unimplemented_method)", n)
	}
	if !strings.Contains(junit, "passed direct") || !strings.Contains(junit, "Unknown") {
		t.Errorf("the failure does not name the client's UNKNOWN and the direct chain's pass:\n%s", junit)
	}
	for _, f := range []string{"result.json", "grpc-go@wirelab_grpc-go/ping_pong/sim/trace_node_right.pcap",
		"grpc-go@wirelab_grpc-go/ping_pong/origin/converter.jsonl", "grpc-go@direct_grpc-go/empty_unary/rerun.sh"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
	rerun, _ := os.ReadFile(filepath.Join(dir, "grpc-go@empty-trailer_grpc-go", "unimplemented_method", "rerun.sh"))
	if !strings.Contains(string(rerun), "--chains empty-trailer --servers grpc-go --clients grpc-go --cases unimplemented_method --seed 7 --profile ideal --chains-file "+chains) {
		t.Errorf("rerun.sh does not run what the cell ran:\n%s", rerun)
	}
}
