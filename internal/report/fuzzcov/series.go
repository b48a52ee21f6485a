package fuzzcov

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/svgchart"
)

// coverageSeries returns the coverage-over-time series of a run and the y axis label:
// libFuzzer's features (ft, the finer of its two counts) or AFL++'s edges, from stats.json's
// samples (every 5 s; libFuzzer's log lines carry no time, and AFL++ 4.21c here writes
// plot_data only about once a minute and at the end, so it is the fallback when stats.json has
// no samples). Samples before the engine's first status (no execs yet) are left out: their
// "0" was never measured.
func coverageSeries(outDir string, r *run) ([]svgchart.Series, string, []string) {
	var pts []svgchart.Point
	for _, s := range r.Stats.Timeseries {
		c := s.Coverage
		switch {
		case s.Execs == 0:
		case r.Engine == "afl" && c.Edges != nil:
			pts = append(pts, svgchart.Point{X: s.T, Y: float64(*c.Edges)})
		case r.Engine != "afl" && c.Features != nil:
			pts = append(pts, svgchart.Point{X: s.T, Y: float64(*c.Features)})
		}
	}
	if r.Engine != "afl" {
		return []svgchart.Series{{Points: pts}}, "features", nil // one unnamed series: no legend
	}
	if len(pts) > 1 {
		return []svgchart.Series{{Points: pts}}, "edges", nil
	}
	series, warns := aflPlotData(filepath.Join(outDir, filepath.FromSlash(r.Rel), "afl"))
	if len(series) == 0 {
		series = []svgchart.Series{{Points: pts}}
	}
	return series, "edges", warns
}

// aflPlotData reads afl/<instance>/plot_data of every instance (main, s2, ...): one series each.
func aflPlotData(aflDir string) ([]svgchart.Series, []string) {
	insts, err := subdirs(aflDir)
	if err != nil {
		return nil, []string{err.Error()}
	}
	var out []svgchart.Series
	var warns []string
	for _, inst := range insts {
		p := filepath.Join(aflDir, inst, "plot_data")
		pts, err := readPlotData(p)
		if err != nil {
			// AFL++'s own file: a problem costs the chart, not the report.
			warns = append(warns, err.Error())
			continue
		}
		if len(pts) > 0 {
			out = append(out, svgchart.Series{Name: inst, Points: pts})
		}
	}
	return out, warns
}

// readPlotData returns (seconds, edges_found) from an AFL++ plot_data file. Columns are found
// by the header's names ("# relative_time, cycles_done, ..., edges_found, ..."), so a version
// that reorders or adds columns still reads; older AFL's unix_time is made relative.
func readPlotData(p string) ([]svgchart.Point, error) {
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	tCol, eCol, rel := -1, -1, true
	var pts []svgchart.Point
	t0 := 0.0
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if strings.HasPrefix(text, "#") {
			for i, name := range strings.Split(strings.TrimPrefix(text, "#"), ",") {
				switch strings.TrimSpace(name) {
				case "relative_time":
					tCol = i
				case "unix_time":
					tCol, rel = i, false
				case "edges_found":
					eCol = i
				}
			}
			continue
		}
		if tCol < 0 || eCol < 0 {
			return nil, fmt.Errorf("%s: no relative_time/edges_found columns in the header", p)
		}
		cols := strings.Split(text, ",")
		if len(cols) <= max(tCol, eCol) {
			return nil, fmt.Errorf("%s:%d: %d columns, want at least %d", p, line, len(cols), max(tCol, eCol)+1)
		}
		t, err1 := strconv.ParseFloat(strings.TrimSpace(cols[tCol]), 64)
		e, err2 := strconv.ParseFloat(strings.TrimSpace(cols[eCol]), 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s:%d: not a number in the time or edges_found column", p, line)
		}
		if !rel {
			if len(pts) == 0 {
				t0 = t
			}
			t -= t0
		}
		pts = append(pts, svgchart.Point{X: t, Y: e})
	}
	return pts, sc.Err()
}
