package grpcwebsuite

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
)

// benchFile is where the probe's benchmark client writes its numbers, one JSON object per line:
// {"metric": "unary_1k_p50_us", "value": 812}.
const benchFile = "client/bench.json"

// Metric is one benchmark number.
type Metric struct {
	Metric string  `json:"metric"`
	Value  float64 `json:"value"`
}

// ReadBench reads a bench cell's numbers; a missing, empty or malformed file is an error naming
// it (a bench cell without numbers measured nothing).
func ReadBench(cellDir string) ([]Metric, error) {
	path := filepath.Join(cellDir, benchFile)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Metric
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var m Metric
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.Metric == "" {
			return nil, fmt.Errorf("%s:%d: want {\"metric\": name, \"value\": number}", path, n)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no metrics", path)
	}
	return out, nil
}

// benchDetails is a bench cell's numbers as its result's details line.
func benchDetails(cellDir string) (string, error) {
	ms, err := ReadBench(cellDir)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.Metric + "=" + strconv.FormatFloat(m.Value, 'g', 6, 64)
	}
	return strings.Join(parts, " "), nil
}

// BenchRow is one chain's number for one metric, and its ratio to the direct chain's.
type BenchRow struct {
	Chain, Server, Metric string
	Value, Direct, Ratio  float64 // Ratio 0 when direct has no number
}

// BenchTable puts every bench cell's numbers next to the direct chain's (same server and
// metric): latency ratios above 1 and throughput ratios below 1 are the conversion's cost.
func BenchTable(results []matrix.Result) ([]BenchRow, error) {
	type key struct{ server, metric string }
	direct := map[key]float64{}
	var rows []BenchRow
	for _, r := range results {
		if r.Result != matrix.Succeeded || !strings.HasPrefix(r.Case, "bench") {
			continue
		}
		ms, err := ReadBench(r.Dir)
		if err != nil {
			return nil, err
		}
		server, chain := r.Server, r.Get(AxisChain)
		for _, m := range ms {
			if chain == DirectChain {
				direct[key{server, m.Metric}] = m.Value
			}
			rows = append(rows, BenchRow{Chain: chain, Server: server, Metric: m.Metric, Value: m.Value})
		}
	}
	for i := range rows {
		if d, ok := direct[key{rows[i].Server, rows[i].Metric}]; ok && d != 0 {
			rows[i].Direct, rows[i].Ratio = d, rows[i].Value/d
		}
	}
	sort.SliceStable(rows, func(a, b int) bool {
		if rows[a].Metric != rows[b].Metric {
			return rows[a].Metric < rows[b].Metric
		}
		return rows[a].Chain == DirectChain && rows[b].Chain != DirectChain
	})
	return rows, nil
}

// WriteBenchCSV writes the table as CSV: chain, server, metric, value, direct, ratio.
func WriteBenchCSV(w io.Writer, rows []BenchRow) error {
	if _, err := fmt.Fprintln(w, "chain,server,metric,value,direct,ratio_to_direct"); err != nil {
		return err
	}
	for _, r := range rows {
		if _, err := fmt.Fprintf(w, "%s,%s,%s,%g,%g,%.3f\n", r.Chain, r.Server, r.Metric, r.Value, r.Direct, r.Ratio); err != nil {
			return err
		}
	}
	return nil
}

// PrintBench prints the table a person reads: per metric, each chain's value and its ratio.
func PrintBench(w io.Writer, rows []BenchRow) {
	fmt.Fprintf(w, "\n%-24s %-14s %14s %8s\n", "metric", "chain", "value", "x direct")
	for _, r := range rows {
		ratio := "-"
		if r.Ratio != 0 {
			ratio = fmt.Sprintf("%.2f", r.Ratio)
		}
		fmt.Fprintf(w, "%-24s %-14s %14.1f %8s\n", r.Metric, r.Chain, r.Value, ratio)
	}
}
