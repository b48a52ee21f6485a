package report

import (
	"fmt"
	"sort"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/reportview"
)

// suiteCases lists the run's cases in the order of the suite's case file (known; the order the
// terminal shows), cases the file lacks after them by name. A case's abbreviation is the run's
// own.
func suiteCases(known []reportview.Case, results []matrix.Result) []reportview.Case {
	abbr := map[string]string{}
	for _, r := range results {
		abbr[r.Case] = r.Abbr
	}
	var out []reportview.Case
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
		out = append(out, reportview.Case{Name: name, Abbr: abbr[name]})
	}
	return out
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

// markWords say what a gate mark means, in a cell's tooltip.
var markWords = map[string]string{markRegression: "REGRESSION", markExpected: "expected by the baseline",
	markFlaky: "flaky within its measured rate", markFlakyOnce: "flaky entry, run once (decides nothing)", markStale: "newly passing: its baseline entry is stale"}

// cellTitle is a verdict cell's tooltip: how the gate took it, its one-line reason (the verdict
// when it has none) kept short, and its sub-cases' counts.
func cellTitle(c *Cell, mark string) string {
	t := c.R.Reason
	if t == "" {
		t = c.R.Result
	}
	if len(t) > 300 {
		t = t[:300] + " …"
	}
	if w := markWords[mark]; w != "" {
		t = w + ": " + t
	}
	if len(c.Subs) > 0 {
		t += " [sub-cases: " + subCounts(c.Subs) + "]"
	}
	return t
}

// subCounts tallies sub-cases by verdict.
func subCounts(subs []matrix.Result) string {
	n := map[string]int{}
	for _, s := range subs {
		n[s.Result]++
	}
	out := fmt.Sprintf("%d of %d passed", n[matrix.Succeeded], len(subs))
	for _, w := range []string{matrix.Failed, matrix.UnsupportedAtRunTime, matrix.Unsupported} {
		if n[w] > 0 {
			out += fmt.Sprintf(", %d %s", n[w], w)
		}
	}
	return out
}

// subShort is a cell's sub-cases in the matrix: passed/all.
func subShort(subs []matrix.Result) string {
	if len(subs) == 0 {
		return ""
	}
	n := 0
	for _, s := range subs {
		if s.Result == matrix.Succeeded {
			n++
		}
	}
	return fmt.Sprintf("%d/%d", n, len(subs))
}

// matrixTables builds one table per case, laid out as the suite's view says. was holds, for
// cells whose verdict changed since the compared run, the old verdict; g marks each cell as the
// gate took it.
func matrixTables(suite string, lay reportview.Layout, cases []reportview.Case, cells []*Cell, was map[string]string, g gate) []matrixTable {
	if lay.Row == nil {
		lay.Row = func(r matrix.Result) string { return r.Slot() }
	}
	if lay.Col == nil {
		lay.Col = func(r matrix.Result) string { return r.Client }
	}
	byCase := map[string][]*Cell{}
	allRows, allCols := map[string]bool{}, map[string]bool{}
	for _, c := range cells {
		byCase[c.R.Case] = append(byCase[c.R.Case], c)
		allRows[lay.Row(c.R)], allCols[lay.Col(c.R)] = true, true
	}
	var tables []matrixTable
	for _, k := range cases {
		cs := byCase[k.Name]
		rows, cols := allRows, allCols
		if !lay.AllRows || !lay.AllCols {
			here := [2]map[string]bool{{}, {}}
			for _, c := range cs {
				here[0][lay.Row(c.R)], here[1][lay.Col(c.R)] = true, true
			}
			if !lay.AllRows {
				rows = here[0]
			}
			if !lay.AllCols {
				cols = here[1]
			}
		}
		t := matrixTable{Suite: suite, Case: k.Name, Caption: k.Name, Desc: k.Desc, Corner: lay.Corner}
		if k.Abbr != "" {
			t.Caption = fmt.Sprintf("%s (%s)", k.Name, k.Abbr)
		}
		colNames := sortedNames(cols, lay.Less)
		for _, name := range colNames {
			t.Cols = append(t.Cols, matrixCol{Name: name})
			if lay.Beside != nil {
				t.Cols = append(t.Cols, matrixCol{Name: lay.Beside.Head, Oracle: true})
			}
		}
		at := map[[2]string]*Cell{}
		for _, c := range cs {
			at[[2]string{lay.Row(c.R), lay.Col(c.R)}] = c
		}
		for _, rowName := range sortedNames(rows, lay.Less) {
			row := matrixRow{Name: rowName}
			for _, colName := range colNames {
				c := at[[2]string{rowName, colName}]
				if c == nil {
					row.Cells = append(row.Cells, matrixCell{Kind: "none"})
					if lay.Beside != nil {
						row.Cells = append(row.Cells, matrixCell{Kind: "none"})
					}
					continue
				}
				mark := g.mark(c)
				row.Cells = append(row.Cells, matrixCell{Kind: "verdict", Verdict: c.R.Result, Mark: mark, Client: c.R.Client, Server: c.R.Slot(),
					Case: c.R.Case, Title: cellTitle(c, mark), Href: c.Page, Text: verdictText(c.R), Subs: subShort(c.Subs), Was: was[c.R.Key()]})
				if lay.Beside != nil {
					m := lay.Beside.Mark(c.R)
					row.Cells = append(row.Cells, matrixCell{Kind: "oracle", Verdict: m.Verdict, Text: m.Text, Title: m.Title})
				}
			}
			t.Rows = append(t.Rows, row)
		}
		tables = append(tables, t)
	}
	return tables
}

// sortedNames orders a table's row or column names (less: the suite's order, else by name).
func sortedNames(set map[string]bool, less func(a, b string) bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	if less == nil {
		sort.Strings(out)
	} else {
		sort.Slice(out, func(a, b int) bool { return less(out[a], out[b]) })
	}
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
