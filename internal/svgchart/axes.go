package svgchart

import "math"

// plot is the plotting area in pixels: x0 left, x1 right, y0 top, y1 bottom.
type plot struct{ x0, y0, x1, y1 float64 }

// scale maps data values onto pixels; lo and hi are log10 exponents on a log axis.
type scale struct {
	log    bool
	lo, hi float64
	p0, p1 float64
}

func (s scale) px(v float64) float64 {
	if s.log {
		v = math.Log10(v)
	}
	return s.p0 + (v-s.lo)/(s.hi-s.lo)*(s.p1-s.p0)
}

// axis is a data range with its ticks, before it is placed on pixels.
type axis struct {
	log    bool
	lo, hi float64
	ticks  []tick
}

// newAxis picks the ticks and padded range for data in [lo, hi].
func newAxis(lo, hi float64, log, zero bool) axis {
	if log {
		a, b, ts := logTicks(lo, hi)
		return axis{true, a, b, ts}
	}
	if zero {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	a, b, ts := linearTicks(lo, hi)
	return axis{false, a, b, ts}
}

func (a axis) scale(p0, p1 float64) scale { return scale{a.log, a.lo, a.hi, p0, p1} }

func (a axis) labelWidth() float64 {
	w := 0.0
	for _, t := range a.ticks {
		w = math.Max(w, textWidth(t.label))
	}
	return w
}

// margins computes the plot area for a chart of w x h with a title, a legend of
// legendRows rows, and y tick labels of yLabelW pixels.
func margins(w, h int, title bool, legendRows int, yLabelW float64, ylabel, xlabel bool, rightPad float64) plot {
	top := 10.0
	if title {
		top += 20
	}
	top += float64(legendRows) * legendRowH
	left := yLabelW + 12
	if ylabel {
		left += 18
	}
	bottom := 22.0
	if xlabel {
		bottom += 18
	}
	right := math.Max(14, rightPad)
	return plot{left, top, float64(w) - right, float64(h) - bottom}
}

// drawAxes draws grid lines, ticks, tick labels and axis titles.
func (d *doc) drawAxes(p plot, xa, ya axis, xs, ys scale, xlabel, ylabel string) {
	d.raw(`<g class="axes">`)
	for _, t := range ya.ticks {
		y := ys.px(t.v)
		d.raw(`<line class="grid" x1="` + num(p.x0) + `" y1="` + num(y) + `" x2="` + num(p.x1) + `" y2="` + num(y) + `" stroke="#e4e4e4"/>`)
		d.text(p.x0-5, y+4, "end", "", t.label)
	}
	for _, t := range xa.ticks {
		x := xs.px(t.v)
		d.line(x, p.y1, x, p.y1+4, "#666")
		d.text(x, p.y1+16, "middle", "", t.label)
	}
	d.line(p.x0, p.y1, p.x1, p.y1, "#666")
	d.line(p.x0, p.y0, p.x0, p.y1, "#666")
	if xlabel != "" {
		d.text((p.x0+p.x1)/2, p.y1+34, "middle", `class="axis-label"`, xlabel)
	}
	if ylabel != "" {
		x, y := 14.0, (p.y0+p.y1)/2
		d.text(x, y, "middle", `class="axis-label" transform="rotate(-90 `+num(x)+" "+num(y)+`)"`, ylabel)
	}
	d.raw(`</g>`)
}
