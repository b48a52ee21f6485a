package grpcwebsuite

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
)

func testMatrix(kinds ...string) *Matrix {
	m := &Matrix{converters: map[string]string{"conv": "wirelab/conv", "proxy": "wirelab/proxy"}, rtt: 50 * time.Millisecond, profile: "ideal",
		Chains: []*Chain{{Name: "direct"}, {Name: "wirelab", Edge: "conv", Origin: "conv"},
			{Name: "wirelab-text", Edge: "conv", Origin: "conv", EdgeParams: "--text"}, {Name: "proxy", Edge: "conv", Origin: "proxy"}},
		Servers: []Image{{Name: "grpc-go"}}, Clients: []Image{{Name: "grpc-go"}},
		Probes: []Image{{Name: "probe", Ref: "wirelab/probe"}}, Conformers: []Image{{Name: "cc"}},
	}
	for _, k := range kinds {
		m.Cases = append(m.Cases, &Case{Name: k + "_case", Abbr: k[:2], Kind: k, Testcase: k + "_case"})
	}
	return m
}

func cellNames(cells []matrix.PlanCell) []string {
	var out []string
	for _, c := range cells {
		out = append(out, c.Slot()+" "+c.Client)
	}
	return out
}

// Each kind pairs its own images; edge cases run once per distinct edge, origin cases once per
// distinct origin.
func TestCellsByKind(t *testing.T) {
	for kind, want := range map[string][]string{
		KindInterop:     {"grpc-go@direct grpc-go", "grpc-go@wirelab grpc-go", "grpc-go@wirelab-text grpc-go", "grpc-go@proxy grpc-go"},
		KindChain:       {"probe@direct probe", "probe@wirelab probe", "probe@wirelab-text probe", "probe@proxy probe"},
		KindEdge:        {"probe@wirelab probe", "probe@wirelab-text probe"},
		KindOrigin:      {"probe@wirelab probe", "probe@proxy probe"},
		KindConformance: {"cc@direct cc", "cc@wirelab cc", "cc@wirelab-text cc", "cc@proxy cc"},
		KindBench:       {"grpc-go@direct probe", "grpc-go@wirelab probe", "grpc-go@wirelab-text probe", "grpc-go@proxy probe"},
	} {
		if got := cellNames(testMatrix(kind).Cells()); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", kind, got, want)
		}
	}
}

// The layout starts what the kind needs and sends the client to the right hop.
func TestLayoutByKind(t *testing.T) {
	m := testMatrix()
	direct, wirelab := m.Chains[0], m.Chains[1]
	probe := m.Probes[0]
	for _, tc := range []struct {
		chain            *Chain
		c                *Case
		target, origin   string
		services, listen string
	}{
		{direct, &Case{Kind: KindChain}, "server4:443", "", "server", "server:443"},
		{direct, &Case{Kind: KindChain, Down: true}, "server4:443", "", "server", ""},
		{wirelab, &Case{Kind: KindChain}, "edge:443", "wirelab/conv", "server edge origin", "server:443 edge:443 origin:80"},
		{wirelab, &Case{Kind: KindEdge}, "edge:443", "wirelab/probe", "edge origin", "edge:443 origin:80"},
		{wirelab, &Case{Kind: KindEdge, Down: true}, "edge:443", "wirelab/probe", "edge origin", "edge:443"},
		{wirelab, &Case{Kind: KindOrigin}, "origin:80", "wirelab/conv", "server origin", "server:443 origin:80"},
	} {
		env, peers := m.layout(tc.chain, probe, probe, tc.c, 1, "certs")
		var listen, services []string
		for _, p := range peers {
			services = append(services, p.Service)
			if p.Listen != "" {
				listen = append(listen, fmt.Sprintf("%s:%d", p.Service, p.Port))
			}
		}
		if env["GRPC_TARGET"] != tc.target || env["ORIGIN_IMAGE"] != tc.origin || strings.Join(services, " ") != tc.services ||
			strings.Join(listen, " ") != tc.listen || env["PROBE_RTT"] != "50ms" {
			t.Errorf("%s %s down=%v: target %s origin %q services %v waits %v", tc.chain.Name, tc.c.Kind, tc.c.Down,
				env["GRPC_TARGET"], env["ORIGIN_IMAGE"], services, listen)
		}
	}
}

// Bench numbers are read from the cell and put next to direct's; a cell without numbers fails.
func TestBenchTable(t *testing.T) {
	dir := t.TempDir()
	write := func(chain, body string) matrix.Result {
		d := filepath.Join(dir, chain)
		if err := os.MkdirAll(filepath.Join(d, "client"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, benchFile), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return matrix.Result{Cell: matrix.Cell{Server: "grpc-go", Client: "probe", Case: "bench", Axes: map[string]string{AxisChain: chain}}, Result: matrix.Succeeded, Dir: d}
	}
	rows, err := BenchTable([]matrix.Result{
		write("wirelab", `{"metric":"unary_1k_p50_us","value":300}`+"\n"),
		write("direct", `{"metric":"unary_1k_p50_us","value":200}`+"\n"),
	})
	if err != nil || len(rows) != 2 || rows[0].Chain != "direct" || rows[1].Ratio != 1.5 {
		t.Fatalf("%+v %v", rows, err)
	}
	var csv strings.Builder
	if err := WriteBenchCSV(&csv, rows); err != nil || !strings.Contains(csv.String(), "wirelab,grpc-go,unary_1k_p50_us,300,200,1.500") {
		t.Errorf("%s %v", csv.String(), err)
	}
	for _, bad := range []string{"", "not json\n", `{"value":3}`} {
		if _, err := BenchTable([]matrix.Result{write("broken", bad)}); err == nil || !strings.Contains(err.Error(), "bench.json") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
