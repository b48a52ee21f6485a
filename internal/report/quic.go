package report

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/svgchart"
)

// quicMeasurements is the QUIC section's measurements (goodput, crosstraffic): per pair each
// repetition's value, the mean and spread, the competing TCP flow; a bar chart per case with the
// spread as whiskers.
func quicMeasurements(cases []caseInfo, cells []*Cell) []block {
	var out []block
	for _, k := range cases {
		var ms []*Cell
		for _, c := range cells {
			if c.R.Case == k.Name && (len(c.R.Values) > 0 || c.R.Details != "") {
				ms = append(ms, c)
			}
		}
		if len(ms) == 0 {
			continue
		}
		t := &dataTable{Head: []string{"client → server", "result", "mean (± stddev) kbps", "per repetition (kbps)", "competing TCP flow (kbps)", "details"}}
		bars := svgchart.Bars{Title: k.Name + ": mean kbps per pair (whiskers: ± stddev)", YLabel: "kbit/s", Width: 760, Height: 340,
			SeriesNames: []string{"QUIC"}}
		var quic, quicSD, tcp, tcpSD []float64
		anyCross := false
		for _, c := range ms {
			pair := c.R.Client + " → " + c.R.Server
			m, sd := quicinterop.MeanStddev(c.R.Values)
			cm, csd := quicinterop.MeanStddev(c.R.Cross)
			row := []tableCell{{Text: pair, Href: c.Page}, {Text: c.R.Result, Class: "tag " + c.R.Result, Title: c.R.Reason},
				{Text: meanText(c.R.Values, m, sd), Class: "num"}, {Text: joinNums(c.R.Values)}, {Text: meanText(c.R.Cross, cm, csd), Class: "num"},
				{Text: c.R.Details}}
			t.Rows = append(t.Rows, row)
			if len(c.R.Values) == 0 {
				continue
			}
			bars.Groups = append(bars.Groups, pair)
			quic, quicSD = append(quic, m), append(quicSD, sd)
			tcp, tcpSD = append(tcp, cm), append(tcpSD, csd)
			anyCross = anyCross || len(c.R.Cross) > 0
		}
		bars.Values, bars.Errors = [][]float64{quic}, [][]float64{quicSD}
		if anyCross {
			bars.SeriesNames = append(bars.SeriesNames, "competing TCP flow")
			bars.Values, bars.Errors = append(bars.Values, tcp), append(bars.Errors, tcpSD)
		}
		b := block{Heading: "Measurement: " + k.Name, Table: t,
			Notes: []string{"Each repetition is a fresh topology; the value is 8 x the requested bytes over the server's first-to-last 1-RTT packet in the server-side trace."}}
		if len(bars.Groups) > 0 {
			b.Charts = []template.HTML{template.HTML(svgchart.BarChart(bars))}
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

func joinNums(values []float64) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strings.Join(parts, ", ")
}
