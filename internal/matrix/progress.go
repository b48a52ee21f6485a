package matrix

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
	details                     string               // what a measurement's details are ("goodput ")
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

func (p *progress) record(r Result) {
	delete(p.running, r.Label())
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
		p.done, p.total, r.Slot()+"_"+r.Client, r.Case, verdict, r.Seconds, p.passed, p.failed, p.unsupported, flaky, eta)
	if r.Result == Failed || r.Flaky() {
		line += "\n      " + r.Reason
	}
	if r.Details != "" {
		line += "\n      " + p.details + r.Details
	}
	fmt.Fprintln(p.w, line)
}
