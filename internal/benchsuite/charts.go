package benchsuite

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/internal/svgchart"
)

// Chart is one SVG chart of a run: its file name in the run folder and its caption.
type Chart struct{ File, Caption string }

// ChartSet names the run's charts in the order the report shows them: per profile time vs
// size, per profile the h3/h2 ratio, and per size time vs loss (over the loss-sweep profiles,
// losses: percent by profile). It only names them; WriteCharts draws them.
func ChartSet(rows []Row, losses map[string]float64) []Chart {
	var out []Chart
	profiles, sizes := order(rows, func(r Row) string { return r.Profile }), order(rows, func(r Row) string { return r.Size })
	for _, p := range profiles {
		out = append(out, Chart{"time-vs-size-" + p + ".svg", "median download time vs object size on " + p})
	}
	for _, p := range profiles {
		if hasProtocols(rows, p, "h2", "h3") {
			out = append(out, Chart{"h3-h2-ratio-" + p + ".svg", "h3 / h2 median download time on " + p})
		}
	}
	var sweep int
	for _, p := range profiles {
		if _, ok := losses[p]; ok {
			sweep++
		}
	}
	if sweep >= 2 {
		for _, s := range sizes {
			out = append(out, Chart{"time-vs-loss-" + s + ".svg", "median download time of " + s + " vs random loss"})
		}
	}
	return out
}

// WriteCharts draws the chart set into dir and returns it.
func WriteCharts(dir string, rows []Row, losses map[string]float64) ([]Chart, error) {
	set := ChartSet(rows, losses)
	for _, c := range set {
		if err := os.WriteFile(filepath.Join(dir, c.File), []byte(draw(c, rows, losses)), 0o644); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// draw renders one chart of the set from the rows.
func draw(c Chart, rows []Row, losses map[string]float64) string {
	series := func(keep func(Row) bool, x func(Row) float64) []svgchart.Series {
		var out []svgchart.Series
		idx := map[string]int{}
		for _, r := range rows {
			if !keep(r) || r.Reps == 0 {
				continue
			}
			name := r.Server + " " + r.Series()
			i, ok := idx[name]
			if !ok {
				i, idx[name] = len(out), len(out)
				out = append(out, svgchart.Series{Name: name})
			}
			out[i].Points = append(out[i].Points, svgchart.Point{X: x(r), Y: r.Time.Median})
		}
		return out
	}
	for _, p := range order(rows, func(r Row) string { return r.Profile }) {
		switch c.File {
		case "time-vs-size-" + p + ".svg":
			return svgchart.Line(svgchart.Chart{Title: c.Caption, XLabel: "object size (bytes)", YLabel: "download time (ms)",
				LogX: true, LogY: true, Width: 760, Height: 360,
				Series: series(func(r Row) bool { return r.Profile == p }, func(r Row) float64 { return float64(r.Bytes) })})
		case "h3-h2-ratio-" + p + ".svg":
			return ratioChart(c, rows, p)
		}
	}
	for _, s := range order(rows, func(r Row) string { return r.Size }) {
		if c.File == "time-vs-loss-"+s+".svg" {
			sr := series(func(r Row) bool { _, ok := losses[r.Profile]; return ok && r.Size == s },
				func(r Row) float64 { return losses[r.Profile] })
			return svgchart.Line(svgchart.Chart{Title: c.Caption, XLabel: "random loss each way (%)", YLabel: "download time (ms)",
				YZero: true, Width: 760, Height: 360, Series: sr})
		}
	}
	return svgchart.Line(svgchart.Chart{Title: c.Caption})
}

// ratioChart: per server and h3 client a bar per size, the median h3 time over the same client's
// median h2 time when it speaks h2 (a browser), else curl's (below 1: h3 faster). A client other
// than curl is its own group ("nginx, h3 ngtcp2").
func ratioChart(c Chart, rows []Row, profile string) string {
	med := map[[3]string]float64{}
	type group struct{ name, server, h3 string }
	var groups []group
	for _, r := range rows {
		if r.Profile != profile || r.Reps == 0 {
			continue
		}
		med[[3]string{r.Server, r.Series(), r.Size}] = r.Time.Median
		g := group{r.Server, r.Server, r.Series()}
		if r.Series() != "h3" {
			g.name = r.Server + ", " + r.Series()
		}
		if r.Protocol == "h3" && !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	sizes := order(rows, func(r Row) string { return r.Size })
	b := svgchart.Bars{Title: c.Caption + " (below 1: h3 faster)", YLabel: "h3 / h2", SeriesNames: sizes, Width: 760, Height: 340}
	for _, g := range groups {
		b.Groups = append(b.Groups, g.name)
	}
	for _, size := range sizes {
		var vs []float64
		for _, g := range groups {
			h2, ok2 := med[[3]string{g.server, h2Series(g.h3), size}]
			if !ok2 {
				h2, ok2 = med[[3]string{g.server, "h2", size}]
			}
			h3, ok3 := med[[3]string{g.server, g.h3, size}]
			v := math.NaN()
			if ok2 && ok3 && h2 > 0 {
				v = h3 / h2
			}
			vs = append(vs, v)
		}
		b.Values = append(b.Values, vs)
	}
	return svgchart.BarChart(b)
}

// order is the distinct values of key over rows, in first-seen order (the plan's).
func order(rows []Row, key func(Row) string) []string {
	var out []string
	for _, r := range rows {
		if k := key(r); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func hasProtocols(rows []Row, profile string, protos ...string) bool {
	for _, p := range protos {
		if !slices.ContainsFunc(rows, func(r Row) bool { return r.Profile == profile && r.Protocol == p && r.Reps > 0 }) {
			return false
		}
	}
	return true
}

// h2Series is the h2 series of the client of an h3 series ("h3 chromium" -> "h2 chromium",
// "h3" -> "h2").
func h2Series(h3 string) string { return "h2" + strings.TrimPrefix(h3, "h3") }
