package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The gRPC-web smoke CI runs: three interop cases and three conversion cases (one per probe
// kind) on the direct chain and through wirelab's converters (ping_pong needs full duplex over
// the HTTP/1.1 hop), and through two misbehaving origins, where the cases guarding against those
// bugs must fail: an origin appending an empty trailer frame to trailers-only answers fails
// unimplemented_method and trailers_only_status_kept (the client reads UNKNOWN) while they pass
// direct; one keeping a browser's -text content-length fails
// text_request_content_length_recomputed.
func TestIntegrationGrpcwebSmoke(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-grpcweb"), t.TempDir()
	chains, _ := filepath.Abs("testdata/grpcweb-chains-broken.yml")
	baseline, _ := filepath.Abs("testdata/grpcweb-expected-partial.yml")
	code, log := wirelab(t, bin, "grpcweb", "--run-id", id, "--out", out, "-j", "2", "--seed", "7", "--chains-file", chains,
		"--baseline", baseline,
		"--cases", "empty_unary,ping_pong,unimplemented_method,trailers_only_status_kept,text_request_content_length_recomputed,body_trailers_mixed_case_accepted")
	t.Log(log)
	assertNothingLeft(t, id)
	dir := filepath.Join(out, "grpcweb", id)
	cells := readJournal(t, filepath.Join(dir, "results.jsonl"))
	// 4 cases x 4 chains, the origin case once per distinct origin (3), the edge case once.
	if len(cells) != 20 || code != 1 {
		t.Fatalf("%d cells, exit %d; want 20 cells and exit 1 (the broken origins fail)", len(cells), code)
	}
	mustFail := map[string]string{ // cell -> what its own outcome (results.jsonl) must say
		"grpc-go@empty-trailer|unimplemented_method":                        "code = Unknown",
		"grpcweb-probe@empty-trailer|trailers_only_status_kept":             "got UNKNOWN",
		"grpcweb-probe@stale-length|text_request_content_length_recomputed": "declared a Content-Length of 1352",
	}
	for _, c := range cells {
		chain := c.Axes["chain"]
		k := c.Server + "@" + chain + "|" + c.Case
		switch {
		case mustFail[k] != "" && (c.Result != "failed" || !strings.Contains(c.Reason, mustFail[k])):
			t.Errorf("%s: %s %q; want failed, saying %q", k, c.Result, c.Reason, mustFail[k])
		case (chain == "direct" || chain == "wirelab") && c.Result != "succeeded":
			t.Errorf("%s: %s %q; want succeeded", k, c.Result, c.Reason)
		}
		delete(mustFail, k)
	}
	if len(mustFail) > 0 {
		t.Errorf("cells not run: %v", mustFail)
	}
	// The baseline: the expected failures do not fail the run, the unexpected one does, and the
	// wrongly expected cell is reported for removal.
	for _, want := range []string{"2 failed as expected, 1 regressions, 1 newly passing",
		"newly passing (stale entry: make baseline prunes it): grpc-go@wirelab_grpc-go/empty_unary",
		"REGRESSION: grpcweb-probe@stale-length_grpcweb-probe/text_request_content_length_recomputed"} {
		if !strings.Contains(log, want) {
			t.Errorf("the run's output lacks %q", want)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	// junit.xml carries the verdicts compared with the direct chain.
	if junit := string(data); strings.Count(junit, "<failure") != 3 || strings.Count(junit, "(passed direct)") != 2 {
		t.Errorf("junit.xml: want 3 failures, the two chain ones compared with direct (passed direct):\n%s", junit)
	}
	for _, f := range []string{"result.json", "grpc-go@wirelab_grpc-go/ping_pong/sim/trace_node_right.pcap",
		"grpc-go@wirelab_grpc-go/ping_pong/origin/converter.jsonl", "grpc-go@direct_grpc-go/empty_unary/rerun.sh",
		"grpcweb-probe@wirelab_grpcweb-probe/body_trailers_mixed_case_accepted/origin/probe.jsonl"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
	rerun, _ := os.ReadFile(filepath.Join(dir, "grpc-go@empty-trailer_grpc-go", "unimplemented_method", "rerun.sh"))
	if !strings.Contains(string(rerun), "--chains empty-trailer --servers grpc-go --clients grpc-go --cases unimplemented_method --seed 7 --profile ideal --chains-file "+chains) {
		t.Errorf("rerun.sh does not run what the cell ran:\n%s", rerun)
	}
}
