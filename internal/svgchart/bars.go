package svgchart

import (
	"math"
	"strconv"
)

// Bars describes a grouped bar chart.
type Bars struct {
	Title, YLabel string
	Groups        []string    // x categories (e.g. servers)
	SeriesNames   []string    // bars per group (e.g. "h2", "http/1.1")
	Values        [][]float64 // Values[series][group]; NaN (or absent) = missing, drawn as a gap labelled "n/a"
	Errors        [][]float64 // optional +- spread per bar (same shape), drawn as whiskers
	Width, Height int
}

// at returns m[i][j], NaN when absent.
func at(m [][]float64, i, j int) float64 {
	if i < len(m) && j < len(m[i]) {
		return m[i][j]
	}
	return math.NaN()
}

// fmtValue formats a bar's value for its tooltip.
func fmtValue(v float64) string {
	if math.Abs(v) >= 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// BarChart draws grouped bars with optional error whiskers.
func BarChart(b Bars) string {
	w, h := size(b.Width, b.Height)
	ns := max(len(b.SeriesNames), len(b.Values))
	names := make([]string, ns)
	copy(names, b.SeriesNames)
	legend := legendNames(names)
	_, _, nrows := legendRows(legend, float64(w)-20)

	lo, hi := math.Inf(1), math.Inf(-1)
	for s := 0; s < ns; s++ {
		for g := range b.Groups {
			v := at(b.Values, s, g)
			if !finite(v) {
				continue
			}
			e := at(b.Errors, s, g)
			if !finite(e) {
				e = 0
			}
			lo, hi = math.Min(lo, v-math.Abs(e)), math.Max(hi, v+math.Abs(e))
		}
	}
	d := newDoc(w, h, b.Title)
	if math.IsInf(lo, 1) {
		p := margins(w, h, b.Title != "", nrows, 20, b.YLabel != "", false, 0)
		d.legend(legend, p.x0, p.y0-float64(nrows)*legendRowH+2, float64(w)-20, true)
		d.noData(p)
		return d.finish()
	}
	ya := newAxis(lo, hi, false, true) // bars are lengths: the axis always contains 0

	// Group labels: rotate them when they would collide, and grow the bottom margin for them.
	p := margins(w, h, b.Title != "", nrows, ya.labelWidth(), b.YLabel != "", false, 0)
	gw := (p.x1 - p.x0) / float64(len(b.Groups))
	labels := make([]string, len(b.Groups))
	longest := 0.0
	for i, g := range b.Groups {
		labels[i] = truncate(g, 24)
		longest = math.Max(longest, textWidth(labels[i]))
	}
	rotate := longest > gw-4
	if rotate {
		p.y1 -= math.Min(longest*0.6, 110) // sin 35° of the label, roughly
	}
	ys := ya.scale(p.y1, p.y0)

	d.legend(legend, p.x0, p.y0-float64(nrows)*legendRowH+2, float64(w)-20, true)
	d.raw(`<g class="axes">`)
	for _, t := range ya.ticks {
		y := ys.px(t.v)
		d.raw(`<line class="grid" x1="` + num(p.x0) + `" y1="` + num(y) + `" x2="` + num(p.x1) + `" y2="` + num(y) + `" stroke="#e4e4e4"/>`)
		d.text(p.x0-5, y+4, "end", "", t.label)
	}
	for i, l := range labels {
		x := p.x0 + (float64(i)+0.5)*gw
		if rotate {
			d.text(x, p.y1+12, "end", `transform="rotate(-35 `+num(x)+" "+num(p.y1+12)+`)"`, l)
		} else {
			d.text(x, p.y1+16, "middle", "", l)
		}
	}
	base := ys.px(0)
	d.line(p.x0, base, p.x1, base, "#666")
	d.line(p.x0, p.y0, p.x0, p.y1, "#666")
	if b.YLabel != "" {
		x, y := 14.0, (p.y0+p.y1)/2
		d.text(x, y, "middle", `class="axis-label" transform="rotate(-90 `+num(x)+" "+num(y)+`)"`, b.YLabel)
	}
	d.raw(`</g>`)

	bw := gw * 0.8 / float64(max(ns, 1))
	for s := 0; s < ns; s++ {
		d.raw(`<g class="series s` + strconv.Itoa(s) + `" fill="` + color(s) + `">`)
		for g, group := range b.Groups {
			x := p.x0 + float64(g)*gw + gw*0.1 + float64(s)*bw
			cx := x + bw/2
			v := at(b.Values, s, g)
			if !finite(v) {
				attrs := `class="na" font-size="10" fill="#666"`
				if bw < 16 {
					attrs += ` transform="rotate(-90 ` + num(cx+3) + " " + num(base-3) + `)"`
					d.text(cx+3, base-3, "start", attrs, "n/a")
				} else {
					d.text(cx, base-3, "middle", attrs, "n/a")
				}
				continue
			}
			y0, y1 := ys.px(v), base
			if y0 > y1 {
				y0, y1 = y1, y0
			}
			tip := names[s]
			if tip != "" {
				tip += " / "
			}
			tip += group + ": " + fmtValue(v)
			e := math.Abs(at(b.Errors, s, g))
			if finite(e) && e > 0 {
				tip += " ± " + fmtValue(e)
			}
			d.raw(`<rect class="bar" x="` + num(x) + `" y="` + num(y0) + `" width="` + num(bw*0.92) + `" height="` +
				num(y1-y0) + `"><title>` + esc(tip) + `</title></rect>`)
			if finite(e) && e > 0 {
				top, bot, c := ys.px(v+e), ys.px(v-e), cx-bw*0.04
				cap := math.Min(bw*0.25, 6)
				d.raw(`<path class="whisker" fill="none" stroke="#222" d="M` + num(c) + " " + num(bot) + "V" + num(top) +
					"M" + num(c-cap) + " " + num(top) + "H" + num(c+cap) + "M" + num(c-cap) + " " + num(bot) + "H" + num(c+cap) + `"/>`)
			}
		}
		d.raw(`</g>`)
	}
	return d.finish()
}
