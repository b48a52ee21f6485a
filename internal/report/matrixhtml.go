package report

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/grpcwebsuite"
	"github.com/wirelab/wirelab/internal/h2suite"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quicinterop"
)

// caseInfo is a case as the dashboard names it: its abbreviation and what it verifies.
type caseInfo struct{ Name, Abbr, Desc string }

// suiteCases lists the run's cases in the order of the suite's case file in the repository
// (root; the order the terminal shows), cases the file lacks after them by name. A case's
// abbreviation is the run's own.
func suiteCases(suite, root string, results []matrix.Result) []caseInfo {
	var known []caseInfo
	switch suite {
	case SuiteQUIC:
		if cs, err := quicinterop.LoadCases(filepath.Join(root, "conformance", "quic", "testcases.yml")); err == nil {
			for _, c := range cs {
				known = append(known, caseInfo{c.Name, c.Abbr, c.Description})
			}
		}
	case SuiteH2:
		if ss, err := h2suite.LoadSections(filepath.Join(root, "conformance", "h2", "matrix.yml")); err == nil {
			for _, s := range ss {
				known = append(known, caseInfo{s.Name, s.Abbr, strings.TrimSpace(s.Requirement + ": " + s.Description)})
			}
		}
	case SuiteGrpcweb:
		if cs, err := grpcwebsuite.LoadCases(filepath.Join(root, "conformance", "grpcweb", "cases.yml")); err == nil {
			for _, c := range cs {
				known = append(known, caseInfo{c.Name, c.Abbr, strings.TrimSpace(c.Kind + " case: " + c.Requirement)})
			}
		}
	}
	abbr := map[string]string{}
	for _, r := range results {
		abbr[r.Case] = r.Abbr
	}
	var out []caseInfo
	for _, c := range known {
		if a, ok := abbr[c.Name]; ok {
			if a != "" {
				c.Abbr = a
			}
			out = append(out, c)
			delete(abbr, c.Name)
		}
	}
	var rest []string
	for name := range abbr {
		rest = append(rest, name)
	}
	sort.Strings(rest)
	for _, name := range rest {
		out = append(out, caseInfo{Name: name, Abbr: abbr[name]})
	}
	return out
}

// layout says how a suite lays a case's cells out: which name is the row and which the column.
type layout struct {
	corner   string
	row, col func(matrix.Result) string
	oracle   bool // gRPC-web: the direct chain's outcome beside each verdict
	allRows  bool // every row of the run in each case's table (QUIC: the same clients everywhere)
	allCols  bool
}

func suiteLayout(suite string) layout {
	client := func(r matrix.Result) string { return r.Client }
	server := func(r matrix.Result) string { return r.Slot() }
	switch suite {
	case SuiteQUIC:
		return layout{corner: "client \\ server", row: client, col: server, allRows: true, allCols: true}
	case SuiteGrpcweb:
		return layout{corner: "server@chain \\ client", row: server, col: client, oracle: true}
	}
	return layout{corner: "server \\ client", row: server, col: client, allRows: true}
}

// verdictText is a cell's mark: the case's letters, and ~k/N when its repetitions disagreed.
func verdictText(r matrix.Result) string {
	t := r.Abbr
	if t == "" {
		t = r.Case
	}
	if r.Flaky() {
		t += " ~" + r.PassRate()
	}
	return t
}

// cellTitle is a verdict cell's tooltip: its one-line reason (the verdict when it has none),
// kept short.
func cellTitle(r matrix.Result) string {
	t := r.Reason
	if t == "" {
		t = r.Result
	}
	if len(t) > 300 {
		t = t[:300] + " …"
	}
	return t
}

// matrixTables builds one table per case. was holds, for cells whose verdict changed since the
// compared run, the old verdict; direct the gRPC-web direct chain's own outcomes by
// server|client|case.
func matrixTables(suite string, cases []caseInfo, cells []*Cell, was map[string]string, direct map[string]matrix.Result) []matrixTable {
	lay := suiteLayout(suite)
	byCase := map[string][]*Cell{}
	allRows, allCols := map[string]bool{}, map[string]bool{}
	for _, c := range cells {
		byCase[c.R.Case] = append(byCase[c.R.Case], c)
		allRows[lay.row(c.R)], allCols[lay.col(c.R)] = true, true
	}
	var tables []matrixTable
	for _, k := range cases {
		cs := byCase[k.Name]
		rows, cols := allRows, allCols
		if !lay.allRows || !lay.allCols {
			here := [2]map[string]bool{{}, {}}
			for _, c := range cs {
				here[0][lay.row(c.R)], here[1][lay.col(c.R)] = true, true
			}
			if !lay.allRows {
				rows = here[0]
			}
			if !lay.allCols {
				cols = here[1]
			}
		}
		t := matrixTable{Suite: suite, Case: k.Name, Caption: k.Name, Desc: k.Desc, Corner: lay.corner}
		if k.Abbr != "" {
			t.Caption = fmt.Sprintf("%s (%s)", k.Name, k.Abbr)
		}
		colNames := sortedRowNames(suite, cols)
		for _, name := range colNames {
			t.Cols = append(t.Cols, matrixCol{Name: name})
			if lay.oracle {
				t.Cols = append(t.Cols, matrixCol{Name: "direct", Oracle: true})
			}
		}
		at := map[[2]string]*Cell{}
		for _, c := range cs {
			at[[2]string{lay.row(c.R), lay.col(c.R)}] = c
		}
		for _, rowName := range sortedRowNames(suite, rows) {
			row := matrixRow{Name: rowName}
			for _, colName := range colNames {
				c := at[[2]string{rowName, colName}]
				if c == nil {
					row.Cells = append(row.Cells, matrixCell{Kind: "none"})
					if lay.oracle {
						row.Cells = append(row.Cells, matrixCell{Kind: "none"})
					}
					continue
				}
				row.Cells = append(row.Cells, matrixCell{Kind: "verdict", Verdict: c.R.Result, Client: c.R.Client, Server: c.R.Slot(),
					Case: c.R.Case, Title: cellTitle(c.R), Href: c.Page, Text: verdictText(c.R), Was: was[c.R.Key()]})
				if lay.oracle {
					row.Cells = append(row.Cells, oracleCell(c.R, direct))
				}
			}
			t.Rows = append(t.Rows, row)
		}
		tables = append(tables, t)
	}
	return tables
}

// oracleCell shows the direct chain's own outcome for a gRPC-web cell's server, client and case.
func oracleCell(r matrix.Result, direct map[string]matrix.Result) matrixCell {
	if r.Get(grpcwebsuite.AxisChain) == grpcwebsuite.DirectChain {
		return matrixCell{Kind: "oracle", Text: "oracle", Title: "this row is the direct chain: the oracle itself"}
	}
	d, ok := direct[r.With(grpcwebsuite.AxisChain, grpcwebsuite.DirectChain).Key()]
	if !ok {
		return matrixCell{Kind: "oracle", Text: "—", Title: "no direct cell: edge and origin cases check the converter alone"}
	}
	return matrixCell{Kind: "oracle", Verdict: d.Result, Text: map[string]string{matrix.Succeeded: "✓", matrix.Failed: "✕", matrix.Unsupported: "-"}[d.Result],
		Title: "direct: " + cellTitle(d)}
}

// sortedRowNames orders names; gRPC-web puts each server's direct chain (the oracle) first.
func sortedRowNames(suite string, set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Slice(out, func(a, b int) bool {
		if suite == SuiteGrpcweb {
			sa, ca, _ := strings.Cut(out[a], "@")
			sb, cb, _ := strings.Cut(out[b], "@")
			if sa != sb {
				return sa < sb
			}
			if (ca == grpcwebsuite.DirectChain) != (cb == grpcwebsuite.DirectChain) {
				return ca == grpcwebsuite.DirectChain
			}
		}
		return out[a] < out[b]
	})
	return out
}

// counts is a run's one-line tally.
func counts(results []matrix.Result) string {
	t := matrix.Count(results)
	secs, cells := 0.0, 0
	for _, r := range results {
		if r.Sub == "" {
			secs += r.Seconds
			cells++
		}
	}
	s := fmt.Sprintf("%d cells: %s", cells, t)
	if n := matrix.FlakyCount(results); n > 0 {
		s += fmt.Sprintf(", %d flaky", n)
	}
	return s + fmt.Sprintf("; %.0f cell-seconds", secs)
}
