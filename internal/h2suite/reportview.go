package h2suite

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/reportview"
	"github.com/wirelab/wirelab/internal/svgchart"
)

// ReportView implements reportview.Viewer: a table per section, and the upload-BDP comparison
// below.
func (*Suite) ReportView() reportview.View { return view{} }

type view struct{ reportview.Plain }

func (view) Title() string { return "HTTP/2 conformance" }

func (view) Legend() string {
	return "One table per section: rows are servers, the column the client program that ran it."
}

func (view) Cases(root string) []reportview.Case {
	ss, err := LoadSections(defaultMatrixFile(root))
	if err != nil {
		return nil
	}
	out := make([]reportview.Case, len(ss))
	for i, s := range ss {
		out[i] = reportview.Case{Name: s.Name, Abbr: s.Abbr, Desc: strings.TrimSpace(s.Requirement + ": " + s.Description)}
	}
	return out
}

func (view) Rerun(r matrix.Result) string {
	return fmt.Sprintf("wirelab h2 --servers %s --cases %s", r.Server, r.Case)
}

// Blocks implements reportview.View: the run's upload.csv as a table (h2 vs HTTP/1.1 per server
// and profile, the server's windows from its trace) and a chart per profile of both protocols'
// median goodput, whiskers the spread of the repetitions.
func (view) Blocks(in reportview.Input) []reportview.Block {
	path := filepath.Join(in.Dir, "upload.csv")
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	rows, err := ReadUploadCSV(path)
	if err != nil {
		return []reportview.Block{{Heading: "Upload BDP", Warnings: []string{err.Error()}}}
	}
	spread := uploadSpread(in.Results, in.Root)
	t := &reportview.Table{Head: []string{"server", "profile", "BDP", "HTTP/1.1 Mbit/s", "h2 Mbit/s", "h2/h1.1", "flagged",
		"INITIAL_WINDOW_SIZE", "connection window", "stream updates/conn", "median increment", "note"}}
	var profiles []string
	byProfile := map[string][]UploadRow{}
	for _, u := range rows {
		if byProfile[u.Profile] == nil {
			profiles = append(profiles, u.Profile)
		}
		byProfile[u.Profile] = append(byProfile[u.Profile], u)
		flag := ""
		if u.Flagged {
			flag = "FLAGGED"
		}
		row := []reportview.Cell{{Text: u.Server}, {Text: u.Profile}, {Text: u.BDP}, {Text: mbps(u.H1), Num: true}, {Text: mbps(u.H2), Num: true},
			{Text: ratio(u.Ratio), Num: true}, {Text: flag, Warn: u.Flagged}, {}, {}, {}, {}, {Text: u.Note}}
		if w := u.Windows; w != nil {
			row[7], row[8] = reportview.Cell{Text: fmt.Sprint(w.InitialWindow), Num: true}, reportview.Cell{Text: fmt.Sprint(w.ConnWindow), Num: true}
			row[9], row[10] = reportview.Cell{Text: fmt.Sprintf("%.0f", w.StreamUpdates), Num: true}, reportview.Cell{Text: fmt.Sprintf("%.0f", w.MedianStreamIncr), Num: true}
		}
		t.Rows = append(t.Rows, row)
	}
	b := reportview.Block{Heading: "Upload BDP: h2 vs HTTP/1.1", Table: t, Notes: []string{fmt.Sprintf(
		"From %s: median Mbit/s of each protocol's uploads; h2 below %.1fx HTTP/1.1 at high BDP is flagged. Whiskers: the standard deviation of the repetitions.",
		"upload.csv", FlagRatio)}}
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
		b.Charts = append(b.Charts, svgchart.BarChart(bars))
	}
	return []reportview.Block{b}
}

// uploadSpread is the standard deviation of each upload cell's repetitions, by server, profile
// and protocol (the sections say which upload cell is which; from the repository's matrix file).
func uploadSpread(results []matrix.Result, root string) map[[3]string]float64 {
	out := map[[3]string]float64{}
	sections, err := LoadSections(defaultMatrixFile(root))
	if err != nil {
		return out
	}
	secs := map[string]*Section{}
	for _, s := range sections {
		secs[s.Name] = s
	}
	for _, r := range results {
		if s := secs[r.Case]; s != nil && s.UploadProto() != "" && r.Sub == "" {
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
