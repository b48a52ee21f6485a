// Package svgchart renders small, standalone inline SVG charts (line, scatter, bars) for the
// HTML report: no scripts, no external fetches, and byte-for-byte deterministic output so
// reports can be diffed and cached.
package svgchart

import (
	"encoding/xml"
	"math"
	"strconv"
	"strings"
)

// palette is Okabe-Ito (colorblind-safe), reordered so the first colors contrast most on
// white; yellow comes late because it is hard to see on a light background.
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"}

func color(i int) string { return palette[i%len(palette)] }

const (
	defaultWidth  = 640
	defaultHeight = 320
	fontSize      = 12
	charWidth     = 6.6 // rough average glyph width at fontSize, used only for layout
)

// esc escapes s for XML text and attribute values; xml.EscapeText also replaces characters
// XML 1.0 cannot carry, so any name (from a log, a file name) yields a parseable document.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// num formats a pixel coordinate with one decimal (sub-pixel precision is invisible and
// would only bloat the file), without a trailing ".0" or a negative zero.
func num(v float64) string {
	v = math.Round(v*10) / 10
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// textWidth estimates the rendered width of s; the SVG has no access to font metrics.
func textWidth(s string) float64 { return float64(len([]rune(s))) * charWidth }

// truncate shortens s to at most n runes with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n < 2 {
		return string(r[:n])
	}
	return string(r[:n-1]) + "…"
}

func size(w, h int) (int, int) {
	if w <= 0 {
		w = defaultWidth
	}
	if h <= 0 {
		h = defaultHeight
	}
	// Below this the plot area would vanish behind the margins.
	return max(w, 200), max(h, 120)
}

// doc accumulates one SVG document.
type doc struct {
	b    strings.Builder
	w, h int
}

func newDoc(w, h int, title string) *doc {
	d := &doc{w: w, h: h}
	ws, hs := strconv.Itoa(w), strconv.Itoa(h)
	d.b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ` + ws + " " + hs +
		`" width="` + ws + `" height="` + hs + `" role="img"><title>` + esc(title) + "</title>")
	// Fonts on a group rather than the root, so the root keeps the attribute set the report expects.
	d.b.WriteString(`<g font-family="sans-serif" font-size="` + strconv.Itoa(fontSize) + `" fill="#222">`)
	if title != "" {
		d.text(float64(w)/2, 16, "middle", `class="chart-title" font-weight="bold"`, title)
	}
	return d
}

func (d *doc) raw(s string) { d.b.WriteString(s) }

// text writes an escaped <text> element; extra holds already-safe attributes.
func (d *doc) text(x, y float64, anchor, extra, s string) {
	d.b.WriteString(`<text x="` + num(x) + `" y="` + num(y) + `"`)
	if anchor != "" && anchor != "start" {
		d.b.WriteString(` text-anchor="` + anchor + `"`)
	}
	if extra != "" {
		d.b.WriteString(" " + extra)
	}
	d.b.WriteString(">" + esc(s) + "</text>")
}

func (d *doc) line(x1, y1, x2, y2 float64, stroke string) {
	d.b.WriteString(`<line x1="` + num(x1) + `" y1="` + num(y1) + `" x2="` + num(x2) + `" y2="` + num(y2) +
		`" stroke="` + stroke + `"/>`)
}

func (d *doc) finish() string {
	d.b.WriteString("</g></svg>")
	return d.b.String()
}

// noData draws the frame of an empty chart with a centered notice.
func (d *doc) noData(p plot) {
	d.raw(`<rect class="frame" x="` + num(p.x0) + `" y="` + num(p.y0) + `" width="` + num(p.x1-p.x0) +
		`" height="` + num(p.y1-p.y0) + `" fill="none" stroke="#999"/>`)
	d.text((p.x0+p.x1)/2, (p.y0+p.y1)/2, "middle", `class="no-data" fill="#666"`, "no data")
}

// legendRows lays names out left to right, wrapping at maxW; it returns each item's row and x offset.
func legendRows(names []string, maxW float64) (rows []int, xs []float64, nrows int) {
	x, row := 0.0, 0
	for _, n := range names {
		w := 18 + textWidth(n) + 14
		if x > 0 && x+w > maxW {
			row, x = row+1, 0
		}
		rows, xs = append(rows, row), append(xs, x)
		x += w
	}
	if len(names) > 0 {
		nrows = row + 1
	}
	return rows, xs, nrows
}

const legendRowH = 16

// legend draws swatches and names starting at (x0, y0); names are truncated so one item fits a row.
func (d *doc) legend(names []string, x0, y0, maxW float64, rect bool) {
	rows, xs, _ := legendRows(names, maxW)
	d.raw(`<g class="legend">`)
	for i, n := range names {
		x, y := x0+xs[i], y0+float64(rows[i])*legendRowH
		if rect {
			d.raw(`<rect x="` + num(x) + `" y="` + num(y-9) + `" width="12" height="10" fill="` + color(i) + `"/>`)
		} else {
			d.raw(`<line x1="` + num(x) + `" y1="` + num(y-4) + `" x2="` + num(x+12) + `" y2="` + num(y-4) +
				`" stroke="` + color(i) + `" stroke-width="2"/><circle cx="` + num(x+6) + `" cy="` + num(y-4) +
				`" r="2.5" fill="` + color(i) + `"/>`)
		}
		d.text(x+16, y, "", "", n)
	}
	d.raw(`</g>`)
}

// legendNames returns the names to show in a legend, or nil when a legend would say nothing
// (a single unnamed series).
func legendNames(names []string) []string {
	for _, n := range names {
		if n != "" {
			out := make([]string, len(names))
			for i, n := range names {
				out[i] = truncate(n, 40)
			}
			return out
		}
	}
	return nil
}
