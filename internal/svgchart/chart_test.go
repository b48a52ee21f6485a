package svgchart

import (
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"
)

// parse walks s with encoding/xml and fails the test on any error; it returns the
// number of elements per name.
func parse(t *testing.T, s string) map[string]int {
	t.Helper()
	count := map[string]int{}
	dec := xml.NewDecoder(strings.NewReader(s))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return count
		}
		if err != nil {
			t.Fatalf("invalid XML: %v\n%s", err, s)
		}
		if se, ok := tok.(xml.StartElement); ok {
			count[se.Name.Local]++
		}
	}
}

func sample() Chart {
	return Chart{
		Title: "features over time", XLabel: "seconds", YLabel: "features",
		Series: []Series{
			{Name: "libfuzzer", Points: []Point{{0, 10}, {1, 50}, {2, 80}, {5, 120}}},
			{Name: "afl", Class: "dir-client", Points: []Point{{0, 5}, {2, 60}, {4, 100}}},
		},
	}
}

func TestRootAndStructure(t *testing.T) {
	s := Line(sample())
	want := `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 640 320" width="640" height="320" role="img"><title>features over time</title>`
	if !strings.HasPrefix(s, want) {
		t.Fatalf("root: %.200s", s)
	}
	n := parse(t, s)
	if n["polyline"] != 2 || n["circle"] < 7 {
		t.Errorf("elements: %v", n)
	}
	if !strings.Contains(s, `class="series s1 dir-client"`) {
		t.Errorf("series class missing")
	}
	for _, l := range []string{">seconds<", ">features<", ">libfuzzer<", ">afl<"} {
		if !strings.Contains(s, l) {
			t.Errorf("missing %s", l)
		}
	}
}

func TestEscaping(t *testing.T) {
	evil := `<script>&"x'` + "\x00"
	c := Chart{Title: evil, XLabel: evil, YLabel: evil, Series: []Series{{Name: evil, Class: `a" onload="x`, Points: []Point{{1, 1}, {2, 2}}}}}
	b := Bars{Title: evil, YLabel: evil, Groups: []string{evil}, SeriesNames: []string{evil}, Values: [][]float64{{1}}}
	for name, s := range map[string]string{"line": Line(c), "scatter": Scatter(c), "bars": BarChart(b)} {
		parse(t, s)
		if strings.Contains(s, "<script") || strings.Contains(s, `" onload="`) {
			t.Errorf("%s: unescaped input: %s", name, s)
		}
		if !strings.Contains(s, "&lt;script&gt;&amp;&#34;x&#39;") {
			t.Errorf("%s: escaped name not found", name)
		}
	}
}

func TestDeterministic(t *testing.T) {
	var pts []Point
	for i := 0; i < 20000; i++ {
		pts = append(pts, Point{float64(i), float64((i * 7919) % 1000)})
	}
	c := Chart{Series: []Series{{Name: "a", Points: pts}, {Name: "b", Points: pts[:10]}}}
	b := Bars{Groups: []string{"x", "y"}, SeriesNames: []string{"h2", "http/1.1"}, Values: [][]float64{{1, 2}, {3, math.NaN()}}, Errors: [][]float64{{0.1, 0.2}, {0.3, 0}}}
	if Line(c) != Line(c) || Scatter(c) != Scatter(c) || BarChart(b) != BarChart(b) {
		t.Fatal("output differs between two calls with the same input")
	}
}

func TestDownsampleBound(t *testing.T) {
	var pts []Point
	for i := 0; i < 100000; i++ {
		// A noisy ramp like a TCP time-sequence graph, plus one outlier that must survive.
		y := float64(i) + float64((i*7919)%5000)
		if i == 54321 {
			y = 1e6
		}
		pts = append(pts, Point{float64(i) / 1000, y})
	}
	for _, width := range []int{640, 6000} {
		s := Scatter(Chart{Width: width, Series: []Series{{Name: "pkts", Points: pts}}})
		n := parse(t, s)
		if n["circle"] > defaultMaxPoints || n["circle"] < 100 {
			t.Errorf("width %d: %d dots", width, n["circle"])
		}
		if len(s) > 200_000 {
			t.Errorf("width %d: %d bytes", width, len(s))
		}
	}
	// The outlier is the top of its column and the first/last points are always kept.
	px := make([]pt, len(pts))
	for i, p := range pts {
		px[i] = pt{p.X * 0.5, 300 - p.Y/4000}
	}
	idx := downsample(px, 0, 50, 4000)
	if len(idx) > 4000 || idx[0] != 0 || idx[len(idx)-1] != len(pts)-1 {
		t.Fatalf("downsample: %d points, first %d last %d", len(idx), idx[0], idx[len(idx)-1])
	}
	found := false
	for _, i := range idx {
		found = found || i == 54321
	}
	if !found {
		t.Error("outlier dropped")
	}
	// Small series are drawn whole.
	if got := downsample(px[:10], 0, 50, 4000); len(got) != 10 {
		t.Errorf("10 points -> %d", len(got))
	}
}

func TestEmptyAndNaN(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for name, c := range map[string]Chart{
		"zero":     {},
		"empty":    {Title: "t", Series: []Series{{Name: "a"}}},
		"nan":      {Series: []Series{{Name: "a", Points: []Point{{nan, 1}, {1, inf}, {-inf, 2}}}}},
		"log<=0":   {LogX: true, LogY: true, Series: []Series{{Points: []Point{{0, 1}, {1, -1}}}}},
		"tiny":     {Width: 1, Height: 1, Series: []Series{{Points: []Point{{1, 1}}}}},
		"onePoint": {Series: []Series{{Points: []Point{{3, 3}, {nan, nan}}}}},
	} {
		for kind, s := range map[string]string{"line": Line(c), "scatter": Scatter(c)} {
			parse(t, s)
			hasData := name == "tiny" || name == "onePoint"
			if strings.Contains(s, ">no data<") == hasData {
				t.Errorf("%s %s: no-data text wrong: %s", name, kind, s)
			}
			if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
				t.Errorf("%s %s: NaN/Inf in output", name, kind)
			}
		}
	}
	for name, b := range map[string]Bars{
		"zero":    {},
		"allNaN":  {Groups: []string{"a"}, SeriesNames: []string{"s"}, Values: [][]float64{{nan}}},
		"ragged":  {Groups: []string{"a", "b", "c"}, SeriesNames: []string{"s", "t"}, Values: [][]float64{{1}}, Errors: [][]float64{{nan, 1}}},
		"inf":     {Groups: []string{"a"}, Values: [][]float64{{inf}}},
		"missing": {Groups: []string{"a", "b"}, SeriesNames: []string{"h2", "http/1.1"}, Values: [][]float64{{1, nan}, {2, 3}}},
	} {
		s := BarChart(b)
		n := parse(t, s)
		if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
			t.Errorf("bars %s: NaN/Inf in output", name)
		}
		switch name {
		case "ragged":
			if n["rect"] != 1+2 || strings.Count(s, ">n/a<") != 5 { // 1 bar + 2 legend swatches
				t.Errorf("ragged: %v n/a=%d", n, strings.Count(s, ">n/a<"))
			}
		case "missing":
			if strings.Count(s, ">n/a<") != 1 {
				t.Errorf("missing: want one n/a")
			}
		default:
			if !strings.Contains(s, ">no data<") {
				t.Errorf("bars %s: want no data", name)
			}
		}
	}
}

func TestLogAxes(t *testing.T) {
	c := Chart{LogX: true, LogY: true, Series: []Series{{Name: "a", Points: []Point{{1, 0.01}, {10, 1}, {1000, 100}, {0, 5}, {5, -1}}}}}
	s := Line(c)
	n := parse(t, s)
	if n["circle"] != 3+1 { // 3 points and the legend's marker
		t.Errorf("want 3 points (<= 0 dropped), got %d", n["circle"]-1)
	}
	for _, l := range []string{">0.01<", ">1<", ">100<", ">1k<"} {
		if !strings.Contains(s, l) {
			t.Errorf("log tick %s missing", l)
		}
	}
	// Equal steps in log space land on equally spaced pixels.
	sc := scale{log: true, lo: 0, hi: 3, p0: 0, p1: 300}
	if sc.px(1) != 0 || sc.px(10) != 100 || sc.px(1000) != 300 {
		t.Errorf("log scale: %v %v %v", sc.px(1), sc.px(10), sc.px(1000))
	}
}

func TestYZero(t *testing.T) {
	c := Chart{YZero: true, Series: []Series{{Points: []Point{{0, 500}, {1, 600}}}}}
	if s := Line(c); !strings.Contains(s, ">0</text>") {
		t.Errorf("YZero: no 0 tick")
	}
	c.YZero = false
	if s := Line(c); strings.Contains(s, `">0</text>`) && strings.Count(s, ">0</text>") > 1 {
		t.Errorf("without YZero the y axis should not include 0")
	}
}

func TestBarsWhiskers(t *testing.T) {
	b := Bars{Title: "goodput", YLabel: "MB/s", Groups: []string{"nginx", "h2o"}, SeriesNames: []string{"h2", "http/1.1"},
		Values: [][]float64{{10, 20}, {15, 5}}, Errors: [][]float64{{1, 2}, {0, 0.5}}}
	s := BarChart(b)
	n := parse(t, s)
	if n["path"] != 3 || n["rect"] != 4+2 {
		t.Errorf("elements: %v", n)
	}
	if !strings.Contains(s, "<title>h2 / h2o: 20 ± 2</title>") {
		t.Errorf("bar tooltip missing")
	}
}
