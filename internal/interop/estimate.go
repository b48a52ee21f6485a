package interop

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// defaultCellSeconds is the guess for a case that neither an earlier run nor its
// typical_seconds times.
const defaultCellSeconds = 30

// historyFiles is how many of the newest results.jsonl files LoadHistory reads.
const historyFiles = 10

// History holds how long cells took in earlier runs: seconds per run of a cell's topology (a
// repeated cell's repetitions one by one; a measurement's whole cell, with its repetitions).
type History struct {
	cell   map[string][]float64 // client|server|case -> seconds
	byCase map[string][]float64 // case -> seconds of cells that ran (not unsupported)
	Files  int                  // results.jsonl files read
}

// LoadHistory reads the newest results.jsonl files under quicDir/*/ (earlier runs on this
// machine, by modification time; each once, also when the "latest" link points at it). Unreadable files and lines are skipped: an estimate is all
// this is for.
func LoadHistory(quicDir string) History {
	h := History{}
	paths, _ := filepath.Glob(filepath.Join(quicDir, "*", "results.jsonl"))
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	seen := map[string]bool{}
	for _, p := range paths {
		real, err := filepath.EvalSymlinks(p) // out/quic/latest points at a run read already
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		if st, err := os.Stat(real); err == nil {
			files = append(files, file{real, st.ModTime()})
		}
	}
	sort.Slice(files, func(a, b int) bool { return files[a].mod.After(files[b].mod) })
	for i, f := range files {
		if i == historyFiles {
			break
		}
		fh, err := os.Open(f.path)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r CellResult
			if json.Unmarshal(sc.Bytes(), &r) == nil && r.Result != "" {
				h.Add(r)
			}
		}
		fh.Close()
		h.Files++
	}
	return h
}

// Add records one earlier cell result. Cells that did not run a topology (unsupported by a
// manifest, failed compliance: no time) teach nothing; unsupported cells count for their own
// client x server x case only (another pair of the case would run it).
func (h *History) Add(r CellResult) {
	if h.cell == nil {
		h.cell, h.byCase = map[string][]float64{}, map[string][]float64{}
	}
	var secs []float64
	if r.Repeat != nil {
		for _, x := range r.Repeat.Of {
			secs = append(secs, x.Seconds)
		}
	} else {
		secs = []float64{r.Seconds}
	}
	for _, s := range secs {
		if s <= 0 {
			continue
		}
		h.cell[r.Client+"|"+r.Server+"|"+r.Case] = append(h.cell[r.Client+"|"+r.Server+"|"+r.Case], s)
		if r.Result != Unsupported {
			h.byCase[r.Case] = append(h.byCase[r.Case], s)
		}
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// runSeconds is the expected time of one run of a cell's topology, and whether an earlier run
// timed it: the median of the same client x server x case, else of the same case, else the
// case's typical_seconds, else defaultCellSeconds.
func (h History) runSeconds(client, server string, c *Case) (float64, bool) {
	if xs := h.cell[client+"|"+server+"|"+c.Name]; len(xs) > 0 {
		return median(xs), true
	}
	if xs := h.byCase[c.Name]; len(xs) > 0 {
		return median(xs), true
	}
	if c.TypicalSeconds > 0 {
		return c.TypicalSeconds, false
	}
	return defaultCellSeconds, false
}

// declaredUnsupported reports whether a cell is unsupported before it runs (runCell's first
// checks): a manifest does not declare the case, or the pair has no common ALPN.
func declaredUnsupported(server, client Impl, c *Case) bool {
	if !server.Supports(c.Name) || !client.Supports(c.Name) {
		return true
	}
	ok, _ := commonALPN(client, server)
	return !ok && c.Testcase != "http3"
}

// Plan is what a run will do, printed before its first cell.
type Plan struct {
	Cells       int // client x server x case
	Done        int // already in results.jsonl (--resume)
	Runnable    int // to run
	Unsupported int // to skip: unsupported by a manifest or without a common ALPN
	Measuring   int // runnable measurement cells (their own repetitions, not --repeat's)
	FromHistory int // runnable cells timed by earlier runs; the rest by typical_seconds
	Repeat      int
	Jobs        int
	Wall        time.Duration // expected wall time
}

// EstimatePlan counts the cells still to run and estimates the wall time: each runnable cell's
// expected time (runSeconds, times repeat for a non-measurement cell, whose repetitions run one
// after the other), summed and divided by jobs — but never less than the longest cell.
func EstimatePlan(clients, servers []Impl, cases []*Case, done []CellResult, repeat, jobs int, h History) Plan {
	repeat, jobs = max(1, repeat), max(1, jobs)
	p := Plan{Repeat: repeat, Jobs: jobs}
	have := map[string]bool{}
	for _, d := range done {
		have[d.Client+"|"+d.Server+"|"+d.Case] = true
	}
	var sum, longest float64
	for _, s := range servers {
		for _, cl := range clients {
			for _, c := range cases {
				p.Cells++
				switch {
				case have[cl.Name+"|"+s.Name+"|"+c.Name]:
					p.Done++
					continue
				case declaredUnsupported(s, cl, c):
					p.Unsupported++
					continue
				}
				p.Runnable++
				secs, timed := h.runSeconds(cl.Name, s.Name, c)
				if timed {
					p.FromHistory++
				}
				if c.IsMeasurement() {
					p.Measuring++
				} else {
					secs *= float64(repeat)
				}
				sum += secs
				longest = max(longest, secs)
			}
		}
	}
	p.Wall = time.Duration(max(sum/float64(jobs), longest) * float64(time.Second)).Round(time.Second)
	return p
}
