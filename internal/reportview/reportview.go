// Package reportview is what a suite tells the HTML report (internal/report) about itself beyond
// its results: a title, how its matrix tables are laid out, its cases' order and descriptions,
// its judgment over the whole run (an oracle), and blocks of its own (measurements, uploads, a
// benchmark's tables and charts). A suite provides it by implementing Viewer; a suite without
// it gets the generic matrix. The package sits below the suites and the report so that both use
// it: the report finds the suites through the registry, which imports every suite.
package reportview

import (
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
)

// Viewer is a suite.Suite that says how the report shows it.
type Viewer interface {
	ReportView() View
}

// View is a suite as the report shows it. Embed Plain for the generic answers and override what
// the suite does its own way.
type View interface {
	// Title heads the suite's section ("": the suite's name).
	Title() string
	// Legend says how the suite's tables are laid out (the marks' legend is the report's).
	Legend() string
	// Cases are the suite's cases in its case file's order with their descriptions (root: the
	// repository); cases of a run that are not here follow by name.
	Cases(root string) []Case
	// Layout lays out one case's table; results are the run's (as journaled).
	Layout(results []matrix.Result) Layout
	// Verdicts are the results as the run was judged by (result.json, JUnit, the gate): the
	// suite's comparison of cells with each other, over the results as journaled.
	Verdicts(results []matrix.Result) []matrix.Result
	// IsMatrix reports whether a run is the suite's matrix (a run of a benchmark alone is not,
	// and is passed over when picking the run to show).
	IsMatrix(results []matrix.Result) bool
	// Rerun is the command that runs a cell that wrote none (unsupported before it ran).
	Rerun(r matrix.Result) string
	// Trace says how to read a cell's sim trace (its chart and packet list).
	Trace(r matrix.Result) Trace
	// Blocks are the suite's parts below its tables.
	Blocks(in Input) []Block
}

// Case is a case as the report names it: its abbreviation and what it verifies.
type Case struct{ Name, Abbr, Desc string }

// Layout says which name of a cell is its table's row and which its column.
type Layout struct {
	Corner           string                     // the table's top-left cell ("client \ server")
	Row, Col         func(matrix.Result) string // nil: the cell's slot (server and its axes), the client
	AllRows, AllCols bool                       // every row (column) of the run in each case's table
	Less             func(a, b string) bool     // the rows' and columns' order (nil: by name)
	Beside           *Beside                    // a column beside each column (nil: none)
}

// Beside is a column shown beside every column of verdicts: an oracle's outcome for the cell.
type Beside struct {
	Head string
	Mark func(r matrix.Result) Mark
}

// Mark is what a Beside column shows for a cell: Verdict is a result word (its colour), or "".
type Mark struct{ Text, Title, Verdict string }

// Input is what a suite's blocks are made from.
type Input struct {
	ID, Dir  string // the run shown and its folder
	Root     string // the repository
	RunHref  string // the run's folder, relative to the report's index
	Results  []matrix.Result
	Verdicts []matrix.Result
	Cases    []Case                       // the run's cases in order
	Page     func(r matrix.Result) string // a cell's page relative to the index ("": none)
	Others   []Folder                     // the suite's other runs, newest first
}

// Folder is one run's folder.
type Folder struct{ ID, Dir string }

// Trace says how the report reads a cell's sim trace.
type Trace struct {
	Transport byte     // the lab traffic's IP protocol (TCP, UDP): other traffic (iperf's) is left out of the chart
	DecodeAs  []string // tshark's -d options for the packet list
	// Plaintext: the traffic is not TLS, so the report makes a pcapng of a trace the run left
	// without one only when the endpoints wrote TLS secrets anyway.
	Plaintext bool
}

// IP protocols of Trace.Transport.
const (
	TCP byte = 6
	UDP byte = 17
)

// Block is a part of a suite's section below its tables: a heading, notes, charts and a table.
type Block struct {
	Heading  string
	Notes    []string
	Warnings []string // what could not be read, in red
	Charts   []string // SVG documents, inline (svgchart's, which escapes its text)
	Table    *Table
}

// Table is a data table.
type Table struct {
	Head []string
	Rows [][]Cell
}

// Cell is one cell of a data table.
type Cell struct {
	Text, Href, Title string
	Num               bool   // a number: right-aligned
	Warn              bool   // flagged: in red
	Verdict           string // a result word: shown as its tag
}

// Plain is the generic view: the suite's name, rows the cells' slots and columns their clients,
// cases by name, the results as journaled.
type Plain struct{}

// Title implements View.
func (Plain) Title() string { return "" }

// Legend implements View.
func (Plain) Legend() string {
	return "One table per case: rows are the server (with the suite's axes after @), columns the client."
}

// Cases implements View.
func (Plain) Cases(string) []Case { return nil }

// Layout implements View.
func (Plain) Layout([]matrix.Result) Layout { return Layout{Corner: "server \\ client", AllRows: true} }

// Verdicts implements View.
func (Plain) Verdicts(results []matrix.Result) []matrix.Result { return results }

// IsMatrix implements View.
func (Plain) IsMatrix([]matrix.Result) bool { return true }

// Rerun implements View.
func (Plain) Rerun(matrix.Result) string { return "" }

// Trace implements View: TLS over TCP.
func (Plain) Trace(matrix.Result) Trace { return Trace{Transport: TCP} }

// ClientRows is the upstream interop runner's layout: clients in rows, servers (with their
// axes) in columns, every one shown.
func ClientRows() Layout {
	return Layout{Corner: "client \\ server", Row: func(r matrix.Result) string { return r.Client },
		Col: func(r matrix.Result) string { return r.Slot() }, AllRows: true, AllCols: true}
}

// QUIC is a trace whose UDP ports are decoded as QUIC (h3 follows from ALPN).
func QUIC(ports ...int) Trace {
	t := Trace{Transport: UDP}
	for _, p := range ports {
		t.DecodeAs = append(t.DecodeAs, "-d", "udp.port=="+strconv.Itoa(p)+",quic")
	}
	return t
}

// Blocks implements View.
func (Plain) Blocks(Input) []Block { return nil }

// Nums joins values as whole numbers ("9500, 9600").
func Nums(values []float64) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strings.Join(parts, ", ")
}
