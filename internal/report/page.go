package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/reportview"
)

//go:embed templates/*.html assets/style.css assets/filter.js
var files embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{"size": humanSize}).ParseFS(files, "templates/*.html"))

// humanSize prints a file size for a person.
func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// writePage renders template name with data into path (its folder made first).
func writePage(path, name string, data any) error {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// writeAsset copies an embedded asset (the stylesheet) into the report folder.
func writeAsset(dir, name string) error {
	data, err := files.ReadFile("assets/" + name)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), data, 0o644)
}

// filterScript is the dashboard's inline script (no external resources).
func filterScript() template.JS {
	data, _ := files.ReadFile("assets/filter.js")
	return template.JS(data)
}

// The dashboard's parts.

type navItem struct{ ID, Title string }

type caseOption struct{ Value, Text string }

type caseGroup struct {
	Label   string
	Options []caseOption
}

type diffLink struct{ Href, Text string }

// matrixCell is one cell of a matrix table: a verdict (td.cell, linked to its page), an
// oracle's outcome beside it (the suite's Beside column), or a cell not run (none).
type matrixCell struct {
	Kind                        string // verdict, oracle, none
	Verdict                     string
	Mark                        string // how the gate took it: regression, expected, ... ("": passed, unsupported)
	Client, Server, Case, Title string
	Href, Text, Subs, Was       string
}

type matrixCol struct {
	Name   string
	Oracle bool
}

type matrixRow struct {
	Name  string
	Cells []matrixCell
}

// matrixTable is one case's table: rows x columns of verdicts.
type matrixTable struct {
	Suite, Case, Caption, Desc, Corner string
	Cols                               []matrixCol
	Rows                               []matrixRow
}

// tableCell is a cell of a data table (measurements, uploads, benchmark).
type tableCell struct{ Text, Class, Href, Title string }

type dataTable struct {
	Head []string
	Rows [][]tableCell
}

// block is a suite's part below its matrices (its view's): a heading, notes, charts and a table.
type block struct {
	Heading  string
	Notes    []string
	Warnings []string
	Charts   []template.HTML
	Table    *dataTable
}

// blocksOf makes a suite's blocks into the page's: the charts are the suite's SVG (svgchart
// escapes its text), the table cells' flags classes of the stylesheet.
func blocksOf(bs []reportview.Block) []block {
	out := make([]block, len(bs))
	for i, b := range bs {
		out[i] = block{Heading: b.Heading, Notes: b.Notes, Warnings: b.Warnings}
		for _, c := range b.Charts {
			out[i].Charts = append(out[i].Charts, template.HTML(c))
		}
		if b.Table == nil {
			continue
		}
		t := &dataTable{Head: b.Table.Head}
		for _, row := range b.Table.Rows {
			cells := make([]tableCell, len(row))
			for j, c := range row {
				cells[j] = tableCell{Text: c.Text, Href: c.Href, Title: c.Title}
				switch {
				case c.Verdict != "":
					cells[j].Class = "tag " + c.Verdict
				case c.Num:
					cells[j].Class = "num"
				case c.Warn:
					cells[j].Class = "warn"
				}
			}
			t.Rows = append(t.Rows, cells)
		}
		out[i].Table = t
	}
	return out
}

// suiteSection is one matrix suite on the dashboard.
type suiteSection struct {
	ID, Title, Run, RunHref, Counts, Legend string
	Gate                                    gate
	Diff                                    *diffLink
	Notes                                   []string
	Tables                                  []matrixTable
	Blocks                                  []block
}

// gateLink is a suite's verdict at the top of the dashboard.
type gateLink struct{ ID, Title, Verdict, Class, Line string }

// extraSection is a section another package renders (fuzzing, coverage).
type extraSection struct {
	ID, Title string
	Body      template.HTML
	Warnings  []string
}

type indexPage struct {
	Generated, Out string
	Gates          []gateLink
	Missing        []string // registered suites without a run under out/
	Nav            []navItem
	CaseGroups     []caseGroup
	Suites         []suiteSection
	Extra          []extraSection
	Script         template.JS
}
