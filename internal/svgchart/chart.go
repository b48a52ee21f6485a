package svgchart

import (
	"math"
	"strconv"
)

// Point is one data point.
type Point struct{ X, Y float64 }

// Series is one named set of points; Class is added to the series' <g> so the report's
// stylesheet can restyle it (e.g. "dir-client").
type Series struct {
	Name   string
	Points []Point
	Class  string
}

// Chart describes a line or scatter chart.
type Chart struct {
	Title, XLabel, YLabel string
	Width, Height         int  // default 640x320
	LogX, LogY            bool // log10 axes (values <= 0 dropped)
	Series                []Series
	YZero                 bool // y axis starts at 0
	MaxPoints             int  // points drawn per series at most (default 4000), see downsample
	Markers               int  // Line: draw point markers when a series has at most this many points (default 200, -1 never)
}

// Line draws one polyline per series with point markers.
func Line(c Chart) string { return render(c, true) }

// Scatter draws one dot per point; series beyond MaxPoints points are downsampled.
func Scatter(c Chart) string { return render(c, false) }

// clean drops points an axis cannot show: NaN, Inf, and values <= 0 on a log axis.
func (c Chart) clean() [][]Point {
	out := make([][]Point, len(c.Series))
	for i, s := range c.Series {
		for _, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) || (c.LogX && p.X <= 0) || (c.LogY && p.Y <= 0) {
				continue
			}
			out[i] = append(out[i], p)
		}
	}
	return out
}

func render(c Chart, lines bool) string {
	w, h := size(c.Width, c.Height)
	series := c.clean()
	names := make([]string, len(c.Series))
	for i, s := range c.Series {
		names[i] = s.Name
	}
	legend := legendNames(names)
	_, _, nrows := legendRows(legend, float64(w)-20)

	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, pts := range series {
		for _, p := range pts {
			minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
			minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
		}
	}
	d := newDoc(w, h, c.Title)
	if math.IsInf(minX, 1) {
		p := margins(w, h, c.Title != "", nrows, 20, c.YLabel != "", c.XLabel != "", 0)
		d.legend(legend, p.x0, p.y0-float64(nrows)*legendRowH+2, float64(w)-20, false)
		d.noData(p)
		return d.finish()
	}
	xa := newAxis(minX, maxX, c.LogX, false)
	ya := newAxis(minY, maxY, c.LogY, c.YZero && !c.LogY)
	lastX := xa.ticks[len(xa.ticks)-1].label
	p := margins(w, h, c.Title != "", nrows, ya.labelWidth(), c.YLabel != "", c.XLabel != "", textWidth(lastX)/2+4)
	xs, ys := xa.scale(p.x0, p.x1), ya.scale(p.y1, p.y0)
	d.legend(legend, p.x0, p.y0-float64(nrows)*legendRowH+2, float64(w)-20, false)
	d.drawAxes(p, xa, ya, xs, ys, c.XLabel, c.YLabel)

	limit := c.MaxPoints
	if limit <= 0 {
		limit = defaultMaxPoints
	}
	limit = max(limit, 4)
	markers := c.Markers
	if markers == 0 {
		markers = 200
	}
	for i, pts := range series {
		px := make([]pt, len(pts))
		for j, q := range pts {
			px[j] = pt{xs.px(q.X), ys.px(q.Y)}
		}
		idx := downsample(px, p.x0, p.x1, limit)
		class := "series s" + strconv.Itoa(i)
		if c.Series[i].Class != "" {
			class += " " + c.Series[i].Class
		}
		col := color(i)
		d.raw(`<g class="` + esc(class) + `" fill="` + col + `">`)
		if c.Series[i].Name != "" {
			d.raw(`<title>` + esc(c.Series[i].Name) + `</title>`)
		}
		if lines && len(idx) > 1 {
			d.raw(`<polyline fill="none" stroke="` + col + `" stroke-width="1.5" stroke-linejoin="round" points="`)
			for k, j := range idx {
				if k > 0 {
					d.raw(" ")
				}
				d.raw(num(px[j].x) + "," + num(px[j].y))
			}
			d.raw(`"/>`)
		}
		if !lines || (markers > 0 && len(idx) <= markers) {
			r := "2.5"
			if !lines {
				r = "1.5" // scatter plots are dense; small dots keep structure visible
			}
			for _, j := range idx {
				d.raw(`<circle cx="` + num(px[j].x) + `" cy="` + num(px[j].y) + `" r="` + r + `"/>`)
			}
		}
		d.raw(`</g>`)
	}
	return d.finish()
}
