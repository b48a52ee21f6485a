package benchsuite

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/reportview"
)

// ReportView implements reportview.Viewer: a table per profile (rows server@protocol+variant,
// columns the client), then bench.csv and the run's charts.
func (*Suite) ReportView() reportview.View { return view{} }

type view struct{ reportview.Plain }

func (view) Title() string { return "Bench: download time over HTTP/1.1, h2, h3" }

func (view) Legend() string {
	return "One table per profile: rows are server@protocol (and the swept variant), columns the client; a cell passed when " +
		"every download of every repetition arrived intact. The download times are below."
}

func (view) Cases(root string) []reportview.Case {
	cfg, err := Load(defaultBenchFile(root))
	if err != nil {
		return nil
	}
	out := make([]reportview.Case, len(cfg.Profiles))
	for i, p := range cfg.Profiles {
		out[i] = reportview.Case{Name: p.Name, Desc: "sim profile " + p.Name}
		if p.LossSweep {
			out[i].Desc += " (loss sweep)"
		}
	}
	return out
}

// Trace implements reportview.View: h3 cells are QUIC on 443, h1 and h2 TLS over TCP.
func (view) Trace(r matrix.Result) reportview.Trace {
	if r.Get(AxisProtocol) == "h3" {
		return reportview.Trace{Transport: reportview.UDP, DecodeAs: []string{"-d", "udp.port==443,quic"}}
	}
	return reportview.Trace{Transport: reportview.TCP}
}

func (view) Rerun(r matrix.Result) string {
	cmd := fmt.Sprintf("wirelab bench --servers %s --clients %s --protocols %s --profiles %s", r.Server, r.Client, r.Get(AxisProtocol), r.Case)
	_, v := SplitSlot("@" + r.Get(AxisVariant))
	for _, f := range [][2]string{{"--congestion", v.CC}, {"--gso", v.GSO}, {"--hystart", v.HyStart}} {
		if f[1] != "" {
			cmd += " " + f[0] + " " + f[1]
		}
	}
	return cmd
}

// Blocks implements reportview.View: bench.csv as a table and the run's charts (its SVG files,
// inline, as result.json names them). A file that cannot be read is said in its place.
func (view) Blocks(in reportview.Input) []reportview.Block {
	csv := filepath.Join(in.Dir, "bench.csv")
	if _, err := os.Stat(csv); err != nil {
		return nil
	}
	b := reportview.Block{Heading: "Download times"}
	rows, err := ReadCSV(csv)
	if err != nil {
		b.Warnings = append(b.Warnings, err.Error())
		return []reportview.Block{b}
	}
	var sum Summary
	if data, err := os.ReadFile(filepath.Join(in.Dir, "result.json")); err != nil {
		b.Warnings = append(b.Warnings, err.Error())
	} else if err := json.Unmarshal(data, &sum); err != nil {
		b.Warnings = append(b.Warnings, fmt.Sprintf("%s: %v", filepath.Join(in.Dir, "result.json"), err))
	}
	t := &reportview.Table{Head: []string{"server", "congestion control", "GSO", "HyStart++", "client", "protocol", "profile", "size", "reps", "median ms",
		"p25 ms", "p75 ms", "min ms", "max ms", "TTFB median ms", "sim queue drops", "sim loss drops", "server CPU ms/MB", "seeds", "note"}}
	for _, r := range rows {
		seeds := make([]string, len(r.Seeds))
		for i, s := range r.Seeds {
			seeds[i] = fmt.Sprint(s)
		}
		row := []reportview.Cell{{Text: r.Server}, {Text: cmp.Or(r.CC, "default")}, {Text: cmp.Or(r.GSO, "default")}, {Text: cmp.Or(r.HyStart, "default")},
			{Text: r.Client}, {Text: r.Protocol}, {Text: r.Profile}, {Text: r.Size}, {Text: fmt.Sprint(r.Reps), Num: true}}
		for _, v := range []float64{r.Time.Median, r.Time.P25, r.Time.P75, r.Time.Min, r.Time.Max, r.TTFBMedian, r.QueueDrops, r.LossDrops, r.CPUmsPerMB} {
			row = append(row, reportview.Cell{Text: msText(v), Num: true})
		}
		row = append(row, reportview.Cell{Text: strings.Join(seeds, " ")}, reportview.Cell{Text: r.Note, Warn: r.Note != ""})
		t.Rows = append(t.Rows, row)
	}
	b.Table = t
	for _, c := range sum.Charts {
		data, err := os.ReadFile(filepath.Join(in.Dir, c))
		if err != nil {
			b.Warnings = append(b.Warnings, err.Error())
			continue
		}
		b.Charts = append(b.Charts, string(data)) // written by WriteCharts (svgchart escapes its text)
	}
	b.Notes = []string{fmt.Sprintf("From bench.csv (%d rows) and the run's %d charts: per server, client, protocol, profile and object size the median "+
		"download time (curl's time_total: connection, handshake and transfer) over the repetitions, each a topology of its own on its own seed; "+
		"TTFB is curl's time_starttransfer. A QUIC stack's own client (quic-go, ngtcp2, aioquic) is timed from its qlog: first and last response "+
		"byte of stream 0 from the connection's first event. Congestion control: the server's (default: TCP cubic, each QUIC stack its own); GSO: "+
		"its QUIC stack's UDP GSO (on / off; default: the image's). Sim drops: packets the sim dropped towards the client per repetition (queue "+
		"overflow; random loss), medians.", len(rows), len(b.Charts))}
	return []reportview.Block{b}
}

func msText(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}
