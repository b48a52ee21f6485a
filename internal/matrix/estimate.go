package matrix

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// LoadHistory reads the newest results.jsonl files under suiteDir/*/ (earlier runs on this
// machine, by modification time; each once, also when the "latest" link points at it). Unreadable files and lines are skipped: an estimate is all
// this is for.
func LoadHistory(suiteDir string) History {
	h := History{}
	paths, _ := filepath.Glob(filepath.Join(suiteDir, "*", "results.jsonl"))
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	seen := map[string]bool{}
	for _, p := range paths {
		real, err := filepath.EvalSymlinks(p) // out/<suite>/latest points at a run read already
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
		rs, err := ReadResults(f.path)
		if err != nil {
			continue
		}
		for _, r := range rs {
			h.Add(r)
		}
		h.Files++
	}
	return h
}

// Add records one earlier cell result. Cells that did not run a topology (unsupported by a
// manifest, failed compliance: no time) teach nothing; unsupported cells count for their own
// client x server x case only (another pair of the case would run it).
func (h *History) Add(r Result) {
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
		h.cell[r.Key()] = append(h.cell[r.Key()], s)
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
// case's typical seconds, else defaultCellSeconds.
func (h History) runSeconds(c PlanCell) (float64, bool) {
	if c.SetSeconds {
		return c.TypicalSeconds, false
	}
	if xs := h.cell[c.Key()]; len(xs) > 0 {
		return median(xs), true
	}
	if xs := h.byCase[c.Case]; len(xs) > 0 {
		return median(xs), true
	}
	if c.TypicalSeconds > 0 {
		return c.TypicalSeconds, false
	}
	return defaultCellSeconds, false
}

// PlanCell is a cell as the plan sees it before the run.
type PlanCell struct {
	Cell
	Skip           bool    // unsupported before it runs (a manifest says so): no time
	Why            string  // why it is skipped
	Policy         Policy  // how often its topology runs and how the runs decide
	TypicalSeconds float64 // the case's usual wall time when no earlier run timed it; 0: unknown
	// SetSeconds: TypicalSeconds is what the run's own flags make the cell last (a fuzz
	// campaign's --duration), so earlier runs of other lengths do not estimate it.
	SetSeconds bool
	Group      string // cells that must share a shard (compared with each other); "": alone
}

// Plan is what a run will do, printed before its first cell.
type Plan struct {
	Cells       int            // client x server x case
	Done        int            // already in results.jsonl (--resume)
	Runnable    int            // to run
	Unsupported int            // to skip: unsupported by a manifest
	Measuring   int            // runnable cells with a policy of their own (a measurement's repetitions, not --repeat's)
	Policies    map[string]int // those cells by their policy ("all-must-pass x5")
	FromHistory int            // runnable cells timed by earlier runs; the rest by typical seconds
	Repeat      int
	Jobs        int
	Wall        time.Duration // expected wall time
}

// EstimatePlan counts the cells still to run and estimates the wall time: each runnable cell's
// expected time (runSeconds times its policy's repetitions, which run one after the other),
// summed and divided by jobs — but never less than the longest cell. repeat is the run's
// --repeat, for the plan's words.
func EstimatePlan(cells []PlanCell, done []Result, repeat, jobs int, h History) Plan {
	repeat, jobs = max(1, repeat), max(1, jobs)
	p := Plan{Repeat: repeat, Jobs: jobs}
	have := map[string]bool{}
	for _, d := range done {
		have[d.Key()] = true
	}
	var sum, longest float64
	for _, c := range cells {
		p.Cells++
		switch {
		case have[c.Key()]:
			p.Done++
			continue
		case c.Skip:
			p.Unsupported++
			continue
		}
		p.Runnable++
		secs, timed := h.runSeconds(c)
		if timed {
			p.FromHistory++
		}
		pol := c.Policy.Or(repeat)
		if pol.Mode != Majority {
			p.Measuring++
			if p.Policies == nil {
				p.Policies = map[string]int{}
			}
			p.Policies[fmt.Sprintf("%s x%d", pol.Mode, pol.N)]++
		}
		secs *= float64(max(1, pol.N))
		sum += secs
		longest = max(longest, secs)
	}
	p.Wall = time.Duration(max(sum/float64(jobs), longest) * float64(time.Second)).Round(time.Second)
	return p
}

// PrintPlan says what the run will do before its first cell: how many cells run and how many
// are skipped, the repetitions, -j, the expected wall time and where the results go.
func PrintPlan(w io.Writer, p Plan, dir string) {
	done, reps, layout := "", "1 run each", "<server>_<client>/<case>/"
	if p.Done > 0 {
		done = fmt.Sprintf(", %d already done", p.Done)
	}
	if p.Repeat > 1 {
		reps, layout = fmt.Sprintf("%d repetitions of each", p.Repeat), fmt.Sprintf("<server>_<client>/<case>/r1..r%d/", p.Repeat)
	}
	if p.Measuring > 0 {
		var own []string
		for k, n := range p.Policies {
			own = append(own, fmt.Sprintf("%d %s", n, k))
		}
		sort.Strings(own)
		reps += fmt.Sprintf(" (cells with a repetition policy of their own: %s, in r1..rN/)", strings.Join(own, ", "))
	}
	fmt.Fprintf(w, "plan: %d cells: %d to run, %d unsupported by the manifests (not run)%s; %s, -j %d; "+
		"expected wall time ~%s (%d of %d cells timed by earlier runs, the rest by the cases' typical_seconds)\n",
		p.Cells, p.Runnable, p.Unsupported, done, reps, p.Jobs, p.Wall, p.FromHistory, p.Runnable)
	fmt.Fprintf(w, "plan: results in %s: results.jsonl (each cell as it finishes), result.json, junit.xml, %s\n", dir, layout)
}
