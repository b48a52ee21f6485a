package matrix

import (
	"fmt"
	"io"
	"strings"
)

// Column is one case of the terminal table: its name and the abbreviation marking its cells.
type Column struct{ Name, Abbr string }

// PrintTable prints, per case, a client x server table with the cases' abbreviations (upstream
// QUIC runner's style): the case letter when it succeeded, x-marked when it failed, '-' when
// unsupported; a flaky cell (--repeat) adds "~k/N", its pass rate, to the majority's mark.
func PrintTable(w io.Writer, cases []Column, clients, servers []string, results []Result) {
	by, flaky := map[string]string{}, map[string]string{}
	anyFlaky := false
	for _, r := range results {
		k := r.Slot() + "|" + r.Client + "|" + r.Case
		by[k] = r.Result
		if r.Flaky() {
			flaky[k], anyFlaky = " ~"+r.PassRate(), true
		}
	}
	legend := ""
	if anyFlaky {
		legend = ", ~k/N = flaky: k of N repetitions passed"
	}
	fmt.Fprintf(w, "\nresults (rows: client, columns: server; %s = succeeded, %s = failed, ! = unsupported at run time, - = unsupported, . = not run%s)\n", "✓", "✕", legend)
	for _, c := range cases {
		fmt.Fprintf(w, "\n%s (%s)\n%-12s %s\n", c.Name, c.Abbr, "", strings.Join(pad(servers), " "))
		for _, cl := range clients {
			var row []string
			for _, s := range servers {
				mark, k := ".", s+"|"+cl+"|"+c.Name
				switch by[k] {
				case Succeeded:
					mark = "✓ " + c.Abbr + flaky[k]
				case Failed:
					mark = "✕ " + c.Abbr + flaky[k]
				case Unsupported:
					mark = "-"
				case UnsupportedAtRunTime:
					mark = "! " + c.Abbr
				}
				row = append(row, mark)
			}
			fmt.Fprintf(w, "%-12s %s\n", cl, strings.Join(pad(row), " "))
		}
	}
}

func pad(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%-12s", x)
	}
	return out
}

// PrintGrid prints one server x case table (rows: servers, columns: cases), for suites whose
// cases each have a single client: ✓ succeeded, ✕ failed, - unsupported, . not run, and "~k/N"
// on a flaky cell.
func PrintGrid(w io.Writer, cases []Column, servers []string, results []Result) {
	by := map[string]Result{}
	for _, r := range results {
		by[r.Slot()+"|"+r.Case] = r
	}
	fmt.Fprintf(w, "\nresults (rows: server, columns: case; %s = succeeded, %s = failed, ! = unsupported at run time, - = unsupported, . = not run)\n", "✓", "✕")
	var head []string
	for _, c := range cases {
		head = append(head, c.Abbr)
	}
	width := 12
	for _, s := range servers {
		width = max(width, len(s))
	}
	fmt.Fprintf(w, "%-*s %s\n", width, "", strings.Join(pad(head), " "))
	for _, s := range servers {
		var row []string
		for _, c := range cases {
			mark := "."
			if r, ok := by[s+"|"+c.Name]; ok {
				mark = map[string]string{Succeeded: "✓", Failed: "✕", Unsupported: "-", UnsupportedAtRunTime: "!"}[r.Result]
				if r.Flaky() {
					mark += " ~" + r.PassRate()
				}
			}
			row = append(row, mark)
		}
		fmt.Fprintf(w, "%-*s %s\n", width, s, strings.Join(pad(row), " "))
	}
	fmt.Fprintln(w)
	for _, c := range cases {
		fmt.Fprintf(w, "  %-12s %s\n", c.Abbr, c.Name)
	}
}
