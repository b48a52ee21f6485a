package versions

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteTable prints the rows aligned, "-" for an empty cell.
func WriteTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "IMAGE\tREGISTRY\tPACKAGE\tPINNED\tNEWEST\tSTATUS\tWHERE / NOTE")
	for _, r := range rows {
		note := r.Where
		if r.Note != "" {
			note = join(note, r.Note)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Image, dash(r.Registry), dash(r.Package),
			dash(r.Pinned), dash(r.Newest), r.Status, dash(note))
	}
	return tw.Flush()
}

func WriteJSON(w io.Writer, rows []Row) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
