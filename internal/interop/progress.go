package interop

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// progress prints one line per finished cell with the running totals and an ETA, and, while
// nothing finishes, a line every heartbeat naming the cells still running (a crosstraffic
// measurement runs for minutes).
type progress struct {
	w                           io.Writer
	total, done, resumed        int
	passed, failed, unsupported int
	flaky                       int // --repeat: cells whose repetitions disagreed
	start, lastLine             time.Time
	running                     map[string]time.Time // cell -> start
}

const heartbeat = 30 * time.Second

// started and finished bracket a cell; the caller holds the lock that guards p.
func (p *progress) started(cell string) { p.running[cell] = time.Now() }

// tick prints the running cells if nothing was printed for a heartbeat.
func (p *progress) tick(now time.Time) {
	if now.Sub(p.lastLine) < heartbeat || len(p.running) == 0 {
		return
	}
	var cells []string
	for c, t := range p.running {
		cells = append(cells, fmt.Sprintf("%s (%ds)", c, int(now.Sub(t).Seconds())))
	}
	sort.Strings(cells)
	fmt.Fprintf(p.w, "[%d/%d] running: %s\n", p.done, p.total, strings.Join(cells, ", "))
	p.lastLine = now
}

func newProgress(w io.Writer, total, resumed int) *progress {
	if resumed > 0 {
		fmt.Fprintf(w, "resuming: %d cells already done, %d to run\n", resumed, total)
	}
	return &progress{w: w, total: total, resumed: resumed, start: time.Now(), lastLine: time.Now(), running: map[string]time.Time{}}
}

func (p *progress) record(r CellResult) {
	delete(p.running, r.Server+"_"+r.Client+"/"+r.Case)
	p.lastLine = time.Now()
	p.done++
	switch r.Result {
	case Succeeded:
		p.passed++
	case Unsupported:
		p.unsupported++
	default:
		p.failed++
	}
	verdict, flaky := r.Result, ""
	if r.Repeat != nil { // --repeat: the majority, its pass rate, and whether it was flaky
		verdict += " " + r.PassRate()
		if r.Flaky() {
			p.flaky++
			verdict += " flaky"
		}
	}
	if p.flaky > 0 {
		flaky = fmt.Sprintf(", %d flaky", p.flaky)
	}
	eta := time.Duration(float64(time.Since(p.start)) / float64(p.done) * float64(p.total-p.done)).Round(time.Second)
	line := fmt.Sprintf("[%d/%d] %-28s %-20s %-11s %5.1fs  (%d passed, %d failed, %d unsupported%s, ETA %s)",
		p.done, p.total, r.Server+"_"+r.Client, r.Case, verdict, r.Seconds, p.passed, p.failed, p.unsupported, flaky, eta)
	if r.Result == Failed || r.Flaky() {
		line += "\n      " + r.Reason
	}
	if r.Details != "" {
		line += "\n      goodput " + r.Details
	}
	fmt.Fprintln(p.w, line)
}

// PrintMatrix prints, per test case, a client x server table with upstream's abbreviations:
// the case letter when it succeeded, lower case x-marked when it failed, '-' when unsupported;
// a flaky cell (--repeat) adds "~k/N", its pass rate, to the majority's mark.
func PrintMatrix(w io.Writer, cases []*Case, clients, servers []Impl, results []CellResult) {
	by, flaky := map[string]string{}, map[string]string{}
	anyFlaky := false
	for _, r := range results {
		by[r.Client+"|"+r.Server+"|"+r.Case] = r.Result
		if r.Flaky() {
			flaky[r.Client+"|"+r.Server+"|"+r.Case], anyFlaky = " ~"+r.PassRate(), true
		}
	}
	sNames := make([]string, len(servers))
	for i, s := range servers {
		sNames[i] = s.Name
	}
	legend := ""
	if anyFlaky {
		legend = ", ~k/N = flaky: k of N repetitions passed"
	}
	fmt.Fprintf(w, "\nresults (rows: client, columns: server; %s = succeeded, %s = failed, - = unsupported, . = not run%s)\n", "✓", "✕", legend)
	for _, c := range cases {
		fmt.Fprintf(w, "\n%s (%s)\n%-12s %s\n", c.Name, c.Abbr, "", strings.Join(pad(sNames), " "))
		for _, cl := range clients {
			var row []string
			for _, s := range servers {
				mark, key := ".", cl.Name+"|"+s.Name+"|"+c.Name
				switch by[key] {
				case Succeeded:
					mark = "✓ " + c.Abbr + flaky[key]
				case Failed:
					mark = "✕ " + c.Abbr + flaky[key]
				case Unsupported:
					mark = "-"
				}
				row = append(row, mark)
			}
			fmt.Fprintf(w, "%-12s %s\n", cl.Name, strings.Join(pad(row), " "))
		}
	}
}

func pad(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%-12s", x)
	}
	return out
}

// Counts tallies results by verdict.
func Counts(results []CellResult) (passed, failed, unsupported int) {
	for _, r := range results {
		switch r.Result {
		case Succeeded:
			passed++
		case Unsupported:
			unsupported++
		default:
			failed++
		}
	}
	return
}

// FlakyCount counts the cells whose --repeat repetitions disagreed.
func FlakyCount(results []CellResult) int {
	n := 0
	for _, r := range results {
		if r.Flaky() {
			n++
		}
	}
	return n
}

// SortResults orders results by server, client and case for stable output files.
func SortResults(rs []CellResult) {
	sort.Slice(rs, func(a, b int) bool {
		if rs[a].Server != rs[b].Server {
			return rs[a].Server < rs[b].Server
		}
		if rs[a].Client != rs[b].Client {
			return rs[a].Client < rs[b].Client
		}
		return rs[a].Case < rs[b].Case
	})
}
