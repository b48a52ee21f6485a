package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/benchsuite"
)

// benchSection is the dashboard's Bench section (make bench): the latest bench run's table
// (bench.csv) and its charts (the run's SVG files, inline). None when no bench run wrote its
// bench.csv yet; a run that cannot be read says why in its place.
func benchSection(o Options) (extraSection, bool) {
	dir, ok := latestBenchRun(filepath.Join(o.Out, "bench"))
	if !ok {
		return extraSection{}, false
	}
	id := filepath.Base(dir)
	x := extraSection{ID: "bench", Title: "Bench: download time over HTTP/1.1, h2, h3"}
	rows, err := benchsuite.ReadCSV(filepath.Join(dir, "bench.csv"))
	if err != nil {
		x.Warnings = append(x.Warnings, err.Error())
		return x, true
	}
	var sum benchsuite.Summary
	if data, err := os.ReadFile(filepath.Join(dir, "result.json")); err != nil {
		x.Warnings = append(x.Warnings, err.Error())
	} else if err := json.Unmarshal(data, &sum); err != nil {
		x.Warnings = append(x.Warnings, fmt.Sprintf("%s: %v", filepath.Join(dir, "result.json"), err))
	}
	t := &dataTable{Head: []string{"server", "congestion control", "GSO", "HyStart++", "client", "protocol", "profile", "size", "reps", "median ms", "p25 ms", "p75 ms", "min ms",
		"max ms", "TTFB median ms", "sim queue drops", "sim loss drops", "server CPU ms/MB", "seeds", "note"}}
	for _, r := range rows {
		seeds := make([]string, len(r.Seeds))
		for i, s := range r.Seeds {
			seeds[i] = fmt.Sprint(s)
		}
		cc := r.CC
		if cc == "" {
			cc = "default"
		}
		gso := r.GSO
		if gso == "" {
			gso = "default"
		}
		row := []tableCell{{Text: r.Server}, {Text: cc}, {Text: gso}, {Text: cmp.Or(r.HyStart, "default")}, {Text: r.Client}, {Text: r.Protocol}, {Text: r.Profile}, {Text: r.Size}, {Text: fmt.Sprint(r.Reps), Class: "num"}}
		for _, v := range []float64{r.Time.Median, r.Time.P25, r.Time.P75, r.Time.Min, r.Time.Max, r.TTFBMedian, r.QueueDrops, r.LossDrops, r.CPUmsPerMB} {
			row = append(row, tableCell{Text: msText(v), Class: "num"})
		}
		row = append(row, tableCell{Text: strings.Join(seeds, " ")}, tableCell{Text: r.Note, Class: map[bool]string{true: "warn"}[r.Note != ""]})
		t.Rows = append(t.Rows, row)
	}
	b := block{Heading: "Run " + id, Table: t, Notes: []string{fmt.Sprintf(
		"From out/bench/%s/bench.csv: per server, client, protocol, profile and object size the median download time (curl's time_total: "+
			"connection, handshake and transfer) over the repetitions, each a topology of its own on its own seed; TTFB is curl's "+
			"time_starttransfer. A QUIC stack's own client (quic-go, ngtcp2, aioquic) is timed from its qlog: first and last response byte of "+
			"stream 0 from the connection's first event. Congestion control: the server's (default: TCP cubic, each QUIC stack its own); GSO: its QUIC "+
			"stack's UDP GSO (on / off; default: the image's). Sim drops: packets "+
			"the sim dropped towards the client per repetition (queue overflow; random loss), medians. The charts are the run's SVG files.", id)}}
	for _, c := range sum.Charts {
		data, err := os.ReadFile(filepath.Join(dir, c))
		if err != nil {
			x.Warnings = append(x.Warnings, err.Error())
			continue
		}
		b.Charts = append(b.Charts, template.HTML(data)) // written by benchsuite.WriteCharts (svgchart escapes its text)
	}
	var body bytes.Buffer
	if err := pages.ExecuteTemplate(&body, "block", b); err != nil {
		x.Warnings = append(x.Warnings, err.Error())
	}
	x.Body = template.HTML(fmt.Sprintf(`<p class="summary">Run <a href="../bench/%s/"><code>%s</code></a>: %d rows, %d charts</p>`,
		template.HTMLEscapeString(escapePath(id)), template.HTMLEscapeString(id), len(rows), len(b.Charts))) + template.HTML(body.String())
	return x, true
}

// latestBenchRun is the run out/bench/latest points at when it has its bench.csv, else the
// newest run folder that has one (latest may be a run still under way).
func latestBenchRun(suiteDir string) (string, bool) {
	if target, err := filepath.EvalSymlinks(filepath.Join(suiteDir, "latest")); err == nil && fileExists(filepath.Join(target, "bench.csv")) {
		return target, true
	}
	entries, _ := os.ReadDir(suiteDir)
	best, bestTime := "", int64(0)
	for _, e := range entries {
		st, err := os.Stat(filepath.Join(suiteDir, e.Name(), "bench.csv"))
		if e.Name() == "latest" || err != nil {
			continue
		}
		if t := st.ModTime().UnixNano(); t > bestTime {
			best, bestTime = filepath.Join(suiteDir, e.Name()), t
		}
	}
	return best, best != ""
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
