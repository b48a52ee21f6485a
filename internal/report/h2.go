package report

import (
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/h2suite"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/svgchart"
)

// h2Uploads is the h2 section's upload-BDP part: the run's upload.csv as a table (h2 vs
// HTTP/1.1 per server and profile, the server's windows from its trace) and a chart per profile
// of both protocols' median goodput, whiskers the spread of the repetitions.
func h2Uploads(r *Run, root string) []block {
	path := filepath.Join(r.Dir, "upload.csv")
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	rows, err := h2suite.ReadUploadCSV(path)
	if err != nil {
		return []block{{Heading: "Upload BDP", Notes: []string{err.Error()}}}
	}
	spread := uploadSpread(r.Results, root)
	t := &dataTable{Head: []string{"server", "profile", "BDP", "HTTP/1.1 Mbit/s", "h2 Mbit/s", "h2/h1.1", "flagged",
		"INITIAL_WINDOW_SIZE", "connection window", "stream updates/conn", "median increment", "note"}}
	var profiles []string
	byProfile := map[string][]h2suite.UploadRow{}
	for _, u := range rows {
		if byProfile[u.Profile] == nil {
			profiles = append(profiles, u.Profile)
		}
		byProfile[u.Profile] = append(byProfile[u.Profile], u)
		flag := ""
		if u.Flagged {
			flag = "FLAGGED"
		}
		row := []tableCell{{Text: u.Server}, {Text: u.Profile}, {Text: u.BDP}, {Text: mbps(u.H1), Class: "num"}, {Text: mbps(u.H2), Class: "num"},
			{Text: ratio(u.Ratio), Class: "num"}, {Text: flag, Class: map[bool]string{true: "warn"}[u.Flagged]}, {}, {}, {}, {}, {Text: u.Note}}
		if w := u.Windows; w != nil {
			row[7], row[8] = tableCell{Text: fmt.Sprint(w.InitialWindow), Class: "num"}, tableCell{Text: fmt.Sprint(w.ConnWindow), Class: "num"}
			row[9], row[10] = tableCell{Text: fmt.Sprintf("%.0f", w.StreamUpdates), Class: "num"}, tableCell{Text: fmt.Sprintf("%.0f", w.MedianStreamIncr), Class: "num"}
		}
		t.Rows = append(t.Rows, row)
	}
	b := block{Heading: "Upload BDP: h2 vs HTTP/1.1", Table: t, Notes: []string{fmt.Sprintf(
		"From %s: median Mbit/s of each protocol's uploads; h2 below %.1fx HTTP/1.1 at high BDP is flagged. Whiskers: the standard deviation of the repetitions.",
		"upload.csv", h2suite.FlagRatio)}}
	for _, p := range profiles {
		bars := svgchart.Bars{Title: "upload goodput on " + p, YLabel: "Mbit/s", SeriesNames: []string{"HTTP/1.1", "h2"}, Width: 760, Height: 340,
			Values: [][]float64{{}, {}}, Errors: [][]float64{{}, {}}}
		for _, u := range byProfile[p] {
			bars.Groups = append(bars.Groups, u.Server)
			for i, v := range []float64{u.H1, u.H2} {
				if v == 0 {
					v = math.NaN() // not measured (no HTTP/1.1, a failed side)
				}
				bars.Values[i] = append(bars.Values[i], v)
				bars.Errors[i] = append(bars.Errors[i], spread[[3]string{u.Server, p, []string{"h1", "h2"}[i]}])
			}
		}
		b.Charts = append(b.Charts, template.HTML(svgchart.BarChart(bars)))
	}
	return []block{b}
}

// uploadSpread is the standard deviation of each upload cell's repetitions, by server, profile
// and protocol (the sections say which upload cell is which; from the repository's matrix file).
func uploadSpread(results []matrix.Result, root string) map[[3]string]float64 {
	out := map[[3]string]float64{}
	sections, err := h2suite.LoadSections(filepath.Join(root, "conformance", "h2", "matrix.yml"))
	if err != nil {
		return out
	}
	secs := map[string]*h2suite.Section{}
	for _, s := range sections {
		secs[s.Name] = s
	}
	for _, r := range results {
		if s := secs[r.Case]; s != nil && s.UploadProto() != "" {
			_, sd := quicinterop.MeanStddev(r.Values)
			out[[3]string{r.Server, s.Profile, s.UploadProto()}] = sd
		}
	}
	return out
}

func mbps(v float64) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f", v)
}

func ratio(v float64) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", v)
}
