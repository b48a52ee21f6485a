package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
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

// matrixCell is one cell of a matrix table: a verdict (td.cell, linked to its page), the
// direct chain's outcome beside a gRPC-web verdict (oracle), or a cell not run (none).
type matrixCell struct {
	Kind                        string // verdict, oracle, none
	Verdict                     string
	Client, Server, Case, Title string
	Href, Text, Was             string
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

// block is a suite's part below its matrices: a heading, notes, charts and a table.
type block struct {
	Heading string
	Notes   []string
	Charts  []template.HTML
	Table   *dataTable
}

// suiteSection is one matrix suite on the dashboard.
type suiteSection struct {
	ID, Title, Run, RunHref, Counts, Legend string
	Diff                                    *diffLink
	Notes                                   []string
	Tables                                  []matrixTable
	Blocks                                  []block
}

// extraSection is a section another package renders (fuzzing, coverage).
type extraSection struct {
	ID, Title string
	Body      template.HTML
	Warnings  []string
}

type indexPage struct {
	Generated, Out string
	Nav            []navItem
	CaseGroups     []caseGroup
	Suites         []suiteSection
	Extra          []extraSection
	Script         template.JS
}
