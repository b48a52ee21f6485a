package benchsuite

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// PrintSummary prints the terminal's bench table: per profile, size and server one line with
// each series' (protocol, and client if not curl) median download time, its interquartile range
// and median time to first byte, and the h3/h2 ratio of the medians: curl's, else those of a
// client that speaks both (a browser).
func PrintSummary(w io.Writer, rows []Row) {
	if len(rows) == 0 {
		return
	}
	protos := order(rows, Row.Series)
	by := map[[4]string]Row{}
	for _, r := range rows {
		by[[4]string{r.Profile, r.Size, r.Server, r.Series()}] = r
	}
	// The server column fits the longest slot name ("quic-go@bbr+gso-off" in a sweep).
	sw := 9
	for _, r := range rows {
		sw = max(sw, len(r.Server))
	}
	fmt.Fprintf(w, "\nbench: median download ms [p25-p75] / median time to first byte ms, n = verified repetitions\n")
	fmt.Fprintf(w, "%-11s %-6s %-*s", "profile", "size", sw, "server")
	for _, p := range protos {
		fmt.Fprintf(w, " %-30s", p)
	}
	fmt.Fprintf(w, " %s\n", "h3/h2")
	for _, prof := range order(rows, func(r Row) string { return r.Profile }) {
		for _, size := range order(rows, func(r Row) string { return r.Size }) {
			for _, s := range order(rows, func(r Row) string { return r.Server }) {
				line, shown := fmt.Sprintf("%-11s %-6s %-*s", prof, size, sw, s), false
				for _, p := range protos {
					r, ok := by[[4]string{prof, size, s, p}]
					cell := "-"
					if ok && r.Reps > 0 {
						cell = fmt.Sprintf("%s [%s-%s] / %s n=%d", fmtMs(r.Time.Median), fmtMs(r.Time.P25), fmtMs(r.Time.P75), fmtMs(r.TTFBMedian), r.Reps)
						shown = true
					} else if ok {
						cell, shown = "failed n=0", true
					}
					line += fmt.Sprintf(" %-30s", cell)
				}
				if !shown {
					continue
				}
				ratio := "-"
				for _, p := range protos {
					if p != "h3" && !strings.HasPrefix(p, "h3 ") {
						continue
					}
					h2, h3 := by[[4]string{prof, size, s, h2Series(p)}], by[[4]string{prof, size, s, p}]
					if h2.Reps > 0 && h3.Reps > 0 && h2.Time.Median > 0 && !math.IsNaN(h3.Time.Median) {
						ratio = fmt.Sprintf("%.2f", h3.Time.Median/h2.Time.Median)
						break // curl's (the first h3 series) when it ran
					}
				}
				fmt.Fprintf(w, "%s %s\n", line, ratio)
			}
		}
	}
}
