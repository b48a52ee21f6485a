package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/interop"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// The bench measures against grpc-go's interop server and writes one JSON metric per line.
func TestBenchWritesMetrics(t *testing.T) {
	ln := listenLoopback(t)
	s := grpc.NewServer()
	testpb.RegisterTestServiceServer(s, interop.NewTestServer())
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(s.Stop)

	out := filepath.Join(t.TempDir(), "bench.json")
	code, stdout := runClient(t, benchCase, ln.Addr().String(), "--bench-seconds", "0.2", "--bench-out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var m metric
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.Value <= 0 {
			t.Errorf("line %q: want a metric with a positive value (%v)", sc.Text(), err)
		}
		names = append(names, m.Metric)
	}
	for _, want := range []string{"unary_1k_p50_us", "unary_1k_p99_us", "unary_1k_mean_us", "unary_1k_count",
		"unary_64k_p50_us", "unary_64k_p99_us", "unary_64k_mean_us", "unary_64k_count", "stream_64k_mb_per_s", "stream_64k_messages"} {
		if !slices.Contains(names, want) {
			t.Errorf("metrics %q lack %s", names, want)
		}
	}
}

// A bench against a server that is not there fails with a FAIL line.
func TestBenchFailsWithoutServer(t *testing.T) {
	code, out := runClient(t, benchCase, closedAddr(t), "--bench-seconds", "0.1", "--bench-out", filepath.Join(t.TempDir(), "b.json"))
	if code != 1 || lastLine(out)[:6] != "FAIL: " {
		t.Errorf("exit %d, last line %q; want 1 and FAIL", code, lastLine(out))
	}
}
