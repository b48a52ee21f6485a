package grpcwebsuite

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/reportview"
	"github.com/wirelab/wirelab/internal/svgchart"
)

// ReportView implements reportview.Viewer: a table per case with rows server@chain (direct
// first), beside each client the direct chain's own outcome (the oracle), the verdicts held to
// it, and the benchmark below.
func (*Suite) ReportView() reportview.View { return view{} }

type view struct{ reportview.Plain }

func (view) Title() string { return "gRPC-web conversion" }

func (view) Legend() string {
	return "One table per case: rows are server@chain (the direct chain first: the oracle), columns the client and, beside it, " +
		"the direct chain's own outcome for the same server, client and case. A verdict is the chain's outcome held to direct's " +
		"(as result.json): a chain that fails where direct passes, or passes where direct fails, failed."
}

func (view) Cases(root string) []reportview.Case {
	cs, err := LoadCases(defaultCases(root))
	if err != nil {
		return nil
	}
	out := make([]reportview.Case, len(cs))
	for i, c := range cs {
		out[i] = reportview.Case{Name: c.Name, Abbr: c.Abbr, Desc: strings.TrimSpace(c.Kind + " case: " + c.Requirement)}
	}
	return out
}

// Layout implements reportview.View: the direct chain's own outcomes (as journaled) beside
// every verdict.
func (view) Layout(results []matrix.Result) reportview.Layout {
	direct := map[string]matrix.Result{}
	for _, r := range results {
		if r.Get(AxisChain) == DirectChain {
			direct[r.Key()] = r
		}
	}
	return reportview.Layout{Corner: "server@chain \\ client", Less: directFirst,
		Beside: &reportview.Beside{Head: "direct", Mark: func(r matrix.Result) reportview.Mark { return oracleMark(r, direct) }}}
}

// directFirst orders rows by server, each server's direct chain (the oracle) first.
func directFirst(a, b string) bool {
	sa, ca, _ := strings.Cut(a, "@")
	sb, cb, _ := strings.Cut(b, "@")
	if sa != sb {
		return sa < sb
	}
	if (ca == DirectChain) != (cb == DirectChain) {
		return ca == DirectChain
	}
	return a < b
}

// oracleMark is the direct chain's own outcome for a cell's server, client and case.
func oracleMark(r matrix.Result, direct map[string]matrix.Result) reportview.Mark {
	if r.Get(AxisChain) == DirectChain {
		return reportview.Mark{Text: "oracle", Title: "this row is the direct chain: the oracle itself"}
	}
	d, ok := direct[r.With(AxisChain, DirectChain).Key()]
	if !ok {
		return reportview.Mark{Text: "—", Title: "no direct cell: edge and origin cases check the converter alone"}
	}
	title := d.Reason
	if title == "" {
		title = d.Result
	}
	if len(title) > 300 {
		title = title[:300] + " …"
	}
	text := map[string]string{matrix.Succeeded: "✓", matrix.Failed: "✕", matrix.Unsupported: "-", matrix.UnsupportedAtRunTime: "?"}[d.Result]
	return reportview.Mark{Verdict: d.Result, Text: text, Title: "direct: " + title}
}

// Verdicts implements reportview.View: every chain held to direct, as the run was judged.
func (view) Verdicts(results []matrix.Result) []matrix.Result { return CompareWithDirect(results) }

// IsMatrix implements reportview.View: a run of the benchmark alone (make grpcweb-bench) is not
// the suite's matrix.
func (view) IsMatrix(results []matrix.Result) bool {
	for _, r := range results {
		if !isBenchCase(r.Case) {
			return true
		}
	}
	return len(results) == 0
}

func isBenchCase(name string) bool { return strings.HasPrefix(name, KindBench) }

// Trace implements reportview.View: the chains speak h2c on 443 (HTTP/1.1 to an origin on 80 is
// found by tshark itself); no TLS.
func (view) Trace(matrix.Result) reportview.Trace {
	return reportview.Trace{Transport: reportview.TCP, DecodeAs: []string{"-d", "tcp.port==443,http2"}, Plaintext: true}
}

func (view) Rerun(r matrix.Result) string {
	return fmt.Sprintf("wirelab grpcweb --chains %s --servers %s --clients %s --cases %s", r.Get(AxisChain), r.Server, r.Client, r.Case)
}

// Blocks implements reportview.View: the benchmark of the run shown when it has bench cells,
// else of the newest run that wrote a bench.csv.
func (view) Blocks(in reportview.Input) []reportview.Block {
	id, results := in.ID, in.Verdicts
	if !slices.ContainsFunc(results, func(r matrix.Result) bool { return isBenchCase(r.Case) }) {
		results = nil
		for _, o := range in.Others {
			if _, err := os.Stat(filepath.Join(o.Dir, "bench.csv")); err != nil {
				continue
			}
			rs, err := matrix.ReadJournal(filepath.Join(o.Dir, "results.jsonl"))
			if err != nil {
				return []reportview.Block{{Heading: "Benchmark", Warnings: []string{err.Error()}}}
			}
			id, results = o.ID, CompareWithDirect(rs)
			break
		}
	}
	if results == nil {
		return nil
	}
	return benchBlocks(id, results)
}

// benchBlocks is the benchmark: each chain's numbers next to the direct chain's (the suite's own
// table, read from the bench cells) and a chart of the ratios per metric.
func benchBlocks(id string, results []matrix.Result) []reportview.Block {
	rows, err := BenchTable(results)
	if err != nil {
		return []reportview.Block{{Heading: "Benchmark", Warnings: []string{err.Error()}}}
	}
	if len(rows) == 0 {
		return nil
	}
	t := &reportview.Table{Head: []string{"metric", "chain", "server", "value", "direct", "x direct"}}
	var metrics, chains []string
	ratios := map[[2]string]float64{}
	for _, b := range rows {
		x := "—"
		if b.Ratio != 0 {
			x = fmt.Sprintf("%.2f", b.Ratio)
		}
		t.Rows = append(t.Rows, []reportview.Cell{{Text: b.Metric}, {Text: b.Chain}, {Text: b.Server}, {Text: fmt.Sprintf("%.1f", b.Value), Num: true},
			{Text: fmt.Sprintf("%.1f", b.Direct), Num: true}, {Text: x, Num: true}})
		if b.Chain == DirectChain || b.Ratio == 0 {
			continue
		}
		if !slices.Contains(metrics, b.Metric) {
			metrics = append(metrics, b.Metric)
		}
		if !slices.Contains(chains, b.Chain) {
			chains = append(chains, b.Chain)
		}
		ratios[[2]string{b.Chain, b.Metric}] = b.Ratio
	}
	blk := reportview.Block{Heading: "Benchmark (run " + id + ")", Table: t, Notes: []string{
		"Latency ratios above 1 and throughput ratios below 1 are the conversion's cost."}}
	if len(metrics) > 0 {
		bars := svgchart.Bars{Title: "each chain as a multiple of direct", YLabel: "x direct", Groups: metrics, SeriesNames: chains, Width: 760, Height: 340}
		for _, ch := range chains {
			vs := make([]float64, len(metrics))
			for i, m := range metrics {
				v, ok := ratios[[2]string{ch, m}]
				if !ok {
					v = math.NaN()
				}
				vs[i] = v
			}
			bars.Values = append(bars.Values, vs)
		}
		blk.Charts = []string{svgchart.BarChart(bars)}
	}
	return []reportview.Block{blk}
}
