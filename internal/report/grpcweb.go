package report

import (
	"fmt"
	"html/template"
	"math"
	"slices"

	"github.com/wirelab/wirelab/internal/grpcwebsuite"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/svgchart"
)

// grpcwebDirect is every direct-chain cell's own outcome by server|client|case: the oracle the
// other chains are held to.
func grpcwebDirect(results []matrix.Result) map[string]matrix.Result {
	out := map[string]matrix.Result{}
	for _, r := range results {
		if r.Get(grpcwebsuite.AxisChain) == grpcwebsuite.DirectChain {
			out[r.Key()] = r
		}
	}
	return out
}

// grpcwebBench is the benchmark: each chain's numbers next to the direct chain's (the suite's
// own table, read from the bench cells) and a chart of the ratios per metric.
func grpcwebBench(r *Run) []block {
	if r == nil {
		return nil
	}
	rows, err := grpcwebsuite.BenchTable(r.Results)
	if err != nil {
		return []block{{Heading: "Benchmark", Notes: []string{err.Error()}}}
	}
	if len(rows) == 0 {
		return nil
	}
	t := &dataTable{Head: []string{"metric", "chain", "server", "value", "direct", "x direct"}}
	var metrics, chains []string
	ratios := map[[2]string]float64{}
	for _, b := range rows {
		x := "—"
		if b.Ratio != 0 {
			x = fmt.Sprintf("%.2f", b.Ratio)
		}
		t.Rows = append(t.Rows, []tableCell{{Text: b.Metric}, {Text: b.Chain}, {Text: b.Server}, {Text: fmt.Sprintf("%.1f", b.Value), Class: "num"},
			{Text: fmt.Sprintf("%.1f", b.Direct), Class: "num"}, {Text: x, Class: "num"}})
		if b.Chain == grpcwebsuite.DirectChain || b.Ratio == 0 {
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
	blk := block{Heading: "Benchmark (run " + r.ID + ")", Table: t, Notes: []string{
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
		blk.Charts = []template.HTML{template.HTML(svgchart.BarChart(bars))}
	}
	return []block{blk}
}
