package report

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/reportview"
)

// Cell is one cell of a shown run (its verdict), with its sub-cases, where its evidence is and
// where its page goes.
type Cell struct {
	Run    *Run
	R      matrix.Result
	Own    matrix.Result    // the cell's outcome as journaled, before the suite's judgment over the run
	Subs   []matrix.Result  // its sub-cases' verdicts, in order
	Trace  reportview.Trace // how to read its sim trace (its suite's)
	Folder string           // <run>/<server>_<client>/<case>, every suite's layout; "" when nothing was written
	Page   string           // the page, relative to the report folder: cells/<suite>/<run>/<name>.html
	Cache  string           // the cache folder of its trace summaries (under the report folder)
}

// cellsDir is where a run's cell pages go, relative to the report folder.
func cellsDir(ref RunRef) string { return "cells/" + ref.Suite + "/" + ref.ID }

// relToOut is the way from a cell page's folder up to out/ (report/cells/<suite>/<run>/).
const relToOut = "../../../../"

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._@+-]`)

// pageName is a cell's page file name: its label with the case folder flattened ("/" -> "__")
// and anything a URL or a file system might mind replaced; names made equal that way are told
// apart by a counter.
func pageName(label string, used map[string]bool) string {
	base := unsafeName.ReplaceAllString(strings.ReplaceAll(label, "/", "__"), "_")
	name := base
	for i := 2; used[name]; i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	used[name] = true
	return name
}

// runCells makes the cells of a run from its verdicts (in the order of r.Results, a cell's
// sub-cases after it); reportDir is the report folder (for the cache).
func runCells(r *Run, verdicts []matrix.Result, v reportview.View, reportDir string) []*Cell {
	used := map[string]bool{}
	own := map[string]matrix.Result{}
	for _, res := range r.Results {
		own[res.Key()] = res
	}
	var out []*Cell
	byKey := map[string]*Cell{}
	for _, res := range verdicts {
		if res.Sub != "" {
			if c := byKey[res.Whole().Key()]; c != nil {
				c.Subs = append(c.Subs, res)
			}
			continue
		}
		name := pageName(res.Label(), used)
		c := &Cell{Run: r, R: res, Own: own[res.Key()], Trace: v.Trace(res), Page: cellsDir(r.RunRef) + "/" + name + ".html",
			Cache: filepath.Join(reportDir, "cache", r.Suite, r.ID, name)}
		if dir := filepath.Join(r.Dir, res.Path()); isDir(dir) {
			c.Folder = dir
		}
		out = append(out, c)
		byKey[res.Key()] = c
	}
	return out
}

// subAnchor is a sub-case's row on its cell's page.
func subAnchor(sub string) string { return "sub-" + unsafeName.ReplaceAllString(sub, "_") }

// pagesOf maps every result's key to its page: a cell's, and a sub-case's row on its cell's page.
func pagesOf(cells []*Cell) map[string]string {
	out := map[string]string{}
	for _, c := range cells {
		out[c.R.Key()] = c.Page
		for _, s := range c.Subs {
			out[s.Key()] = c.Page + "#" + subAnchor(s.Sub)
		}
	}
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Repetition folders inside a cell: r<i> (--repeat) and <i> (a measurement's repetitions).
var repFolder = regexp.MustCompile(`^r?([0-9]+)$`)

// folders lists the folders holding a cell's evidence: the cell's own, then its repetitions'
// in order. Only folders that exist are listed.
func (c *Cell) folders() []string {
	if c.Folder == "" {
		return nil
	}
	out := []string{c.Folder}
	entries, _ := os.ReadDir(c.Folder)
	type rep struct {
		n    int
		path string
	}
	var reps []rep
	for _, e := range entries {
		if m := repFolder.FindStringSubmatch(e.Name()); m != nil && e.IsDir() {
			n, _ := strconv.Atoi(m[1])
			reps = append(reps, rep{n, filepath.Join(c.Folder, e.Name())})
		}
	}
	sort.Slice(reps, func(a, b int) bool { return reps[a].n < reps[b].n })
	for _, r := range reps {
		out = append(out, r.path)
	}
	return out
}

var measurementRep = regexp.MustCompile(`^repetition ([0-9]+):`)

// primary is the folder whose trace the page summarises: the first repetition that did not
// pass when one did not, else the first one; a cell run once is its own folder. "" when no
// folder holds a sim trace.
func (c *Cell) primary() string {
	var want string
	switch {
	case c.R.Repeat != nil:
		for _, rep := range c.R.Repeat.Of {
			if rep.Result != matrix.Succeeded {
				want = filepath.Base(rep.Dir)
				break
			}
		}
	case measurementRep.MatchString(c.R.Reason):
		want = measurementRep.FindStringSubmatch(c.R.Reason)[1]
	}
	var first string
	for _, f := range c.folders() {
		if !isDir(filepath.Join(f, "sim")) {
			continue
		}
		if first == "" {
			first = f
		}
		if want != "" && filepath.Base(f) == want && f != c.Folder {
			return f
		}
	}
	return first
}

// trace returns the primary folder's server-side trace: the decrypted pcapng when there is one
// (for the packet list), and the raw pcap (for the time-sequence). Either may be "".
func (c *Cell) trace() (pcapng, pcap string) {
	p := c.primary()
	if p == "" {
		return "", ""
	}
	if f := filepath.Join(p, "sim", "trace_node_right.pcapng"); fileExists(f) {
		pcapng = f
	}
	if f := filepath.Join(p, "sim", "trace_node_right.pcap"); fileExists(f) {
		pcap = f
	}
	return pcapng, pcap
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// wantsTrace says whether --traces asks for this cell's trace summaries.
func wantsTrace(traces string, c *Cell) bool {
	switch traces {
	case TracesNone:
		return false
	case TracesFailed:
		return c.R.Result == matrix.Failed
	}
	return true
}

// The --traces values.
const (
	TracesAll    = "all"
	TracesFailed = "failed"
	TracesNone   = "none"
)
