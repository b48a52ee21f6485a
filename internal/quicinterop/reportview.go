package quicinterop

import (
	"fmt"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/reportview"
	"github.com/wirelab/wirelab/internal/svgchart"
)

// ReportView implements reportview.Viewer: upstream's layout (a table per case, clients in rows,
// servers in columns) and the measurements below.
func (*Suite) ReportView() reportview.View { return view{} }

type view struct{ reportview.Plain }

func (view) Title() string { return "QUIC/HTTP-3 interop" }

func (view) Legend() string {
	return "One table per test case: rows are clients, columns servers; the letter is the case's (upstream's abbreviations)."
}

func (view) Cases(root string) []reportview.Case {
	cs, err := LoadCases(defaultCasesFile(root))
	if err != nil {
		return nil
	}
	out := make([]reportview.Case, len(cs))
	for i, c := range cs {
		out[i] = reportview.Case{Name: c.Name, Abbr: c.Abbr, Desc: c.Description}
	}
	return out
}

func (view) Layout([]matrix.Result) reportview.Layout { return reportview.ClientRows() }

// Trace implements reportview.View: QUIC on the lab's server ports (h3 follows from ALPN); the
// crosstraffic's iperf flow is TCP, left out of the chart.
func (view) Trace(matrix.Result) reportview.Trace {
	return reportview.QUIC(quictrace.ServerPort, quictrace.PreferredAddressPort)
}

func (view) Rerun(r matrix.Result) string {
	return fmt.Sprintf("wirelab quic --servers %s --clients %s --tests %s", r.Server, r.Client, r.Case)
}

// Blocks implements reportview.View: the measurements (goodput, crosstraffic): per pair each
// repetition's value, the mean and spread, the competing TCP flow; a bar chart per case with the
// spread as whiskers.
func (view) Blocks(in reportview.Input) []reportview.Block {
	var out []reportview.Block
	for _, k := range in.Cases {
		var ms []matrix.Result
		for _, r := range in.Verdicts {
			if r.Case == k.Name && r.Sub == "" && (len(r.Values) > 0 || r.Details != "") {
				ms = append(ms, r)
			}
		}
		if len(ms) == 0 {
			continue
		}
		t := &reportview.Table{Head: []string{"client → server", "result", "mean (± stddev) kbps", "per repetition (kbps)", "competing TCP flow (kbps)", "details"}}
		bars := svgchart.Bars{Title: k.Name + ": mean kbps per pair (whiskers: ± stddev)", YLabel: "kbit/s", Width: 760, Height: 340,
			SeriesNames: []string{"QUIC"}}
		var quic, quicSD, tcp, tcpSD []float64
		anyCross := false
		for _, r := range ms {
			pair := r.Client + " → " + r.Server
			m, sd := MeanStddev(r.Values)
			cm, csd := MeanStddev(r.Cross)
			t.Rows = append(t.Rows, []reportview.Cell{{Text: pair, Href: in.Page(r)}, {Text: r.Result, Verdict: r.Result, Title: r.Reason},
				{Text: meanText(r.Values, m, sd), Num: true}, {Text: reportview.Nums(r.Values)}, {Text: meanText(r.Cross, cm, csd), Num: true},
				{Text: r.Details}})
			if len(r.Values) == 0 {
				continue
			}
			bars.Groups = append(bars.Groups, pair)
			quic, quicSD = append(quic, m), append(quicSD, sd)
			tcp, tcpSD = append(tcp, cm), append(tcpSD, csd)
			anyCross = anyCross || len(r.Cross) > 0
		}
		bars.Values, bars.Errors = [][]float64{quic}, [][]float64{quicSD}
		if anyCross {
			bars.SeriesNames = append(bars.SeriesNames, "competing TCP flow")
			bars.Values, bars.Errors = append(bars.Values, tcp), append(bars.Errors, tcpSD)
		}
		b := reportview.Block{Heading: "Measurement: " + k.Name, Table: t,
			Notes: []string{"Each repetition is a fresh topology; the value is 8 x the requested bytes over the server's first-to-last 1-RTT packet in the server-side trace."}}
		if len(bars.Groups) > 0 {
			b.Charts = []string{svgchart.BarChart(bars)}
		}
		out = append(out, b)
	}
	return out
}

func meanText(values []float64, m, sd float64) string {
	if len(values) == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f (± %.0f)", m, sd)
}
