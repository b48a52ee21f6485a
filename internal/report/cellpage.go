package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/netem"
	"github.com/wirelab/wirelab/internal/reportview"
)

// cellPage is what a cell's page shows.
type cellPage struct {
	Label, Suite, SuiteTitle, Run, RunHref string
	Verdict, Reason                        string
	Mark, MarkText                         string // how the gate took the cell
	Facts                                  [][2]string
	SubCounts                              string
	Subs                                   []subRow
	Rerun, RerunHref                       string
	Repetitions                            []repRow
	Evidence                               []FolderEvidence
	SimNote, SimStats                      string
	SimRows                                [][]string
	ChartNote                              string
	Chart                                  template.HTML
	PacketsNote, Packets                   string
	OutputTail                             string
}

type repRow struct{ Name, Href, Seed, Result, Seconds, Reason string }

// subRow is a sub-case on its cell's page: its verdict and how the gate took it.
type subRow struct{ Anchor, Name, Result, Mark, MarkText, Reason, PassRate string }

// traceInfo is what the report found out about a cell's trace before writing its page.
type traceInfo struct {
	wanted      bool   // --traces asked for it
	packets     string // the packet list, formatted
	packetsNote string
	seq         *TimeSeq
	seqNote     string
	// madePcapng is the pcapng the report made of a trace the run left without one.
	madePcapng      string
	madeWithSecrets bool
}

// cellPageData gathers a cell's page: verdict, facts, the rerun command, every folder's
// evidence, the sim's stats and seed, the time-sequence chart and the packet list.
func cellPageData(out string, sr *suiteRun, c *Cell, ti traceInfo) cellPage {
	r := c.R
	title := sr.suite.title()
	p := cellPage{Label: r.Label(), Suite: c.Run.Suite, SuiteTitle: title, Run: c.Run.ID,
		RunHref: hrefFromPage(out, c.Run.Dir) + "/", Verdict: r.Result, Reason: r.Reason, Rerun: r.Rerun}
	p.Mark = sr.gate.mark(c)
	p.MarkText = markWords[p.Mark]
	if own := sr.gate.marks[r.Key()]; p.Mark != "" && own != p.Mark {
		p.MarkText += " (through its sub-cases, below)"
	}
	if p.Rerun == "" {
		p.Rerun = sr.suite.view.Rerun(r)
	}
	if p.Rerun == "" {
		p.Rerun = "(the cell wrote no rerun command)"
	}
	p.Facts = [][2]string{{"suite", title}, {"run", c.Run.ID}, {"client", r.Client}, {"server", r.Server}}
	for _, a := range r.Named() {
		if a.Name != matrix.AxisServer && a.Name != matrix.AxisClient && a.Name != matrix.AxisCase {
			p.Facts = append(p.Facts, [2]string{a.Name, a.Value})
		}
	}
	p.Facts = append(p.Facts, [2]string{"case", caseLabel(r)}, [2]string{"seconds", fmt.Sprintf("%.1f", r.Seconds)})
	if c.Own.Result != "" && (c.Own.Result != r.Result || c.Own.Reason != r.Reason) {
		p.Facts = append(p.Facts, [2]string{"own outcome", c.Own.Result + ": " + c.Own.Reason + " (the verdict above is the suite's, over the whole run: result.json's)"})
	}
	if len(c.Subs) > 0 {
		p.SubCounts = subCounts(c.Subs)
		if r.BySubs {
			p.SubCounts += "; the cell's verdict is its sub-cases': they are judged, not the cell"
		}
		for _, s := range c.Subs {
			m := sr.gate.marks[s.Key()]
			p.Subs = append(p.Subs, subRow{Anchor: subAnchor(s.Sub), Name: s.Sub, Result: s.Result, Mark: m, MarkText: markWords[m], Reason: s.Reason, PassRate: s.PassRate()})
		}
	}
	if r.Repeat != nil {
		p.Facts = append(p.Facts, [2]string{"repetitions passed", r.PassRate() + map[bool]string{true: " (flaky)"}[r.Flaky()]})
	}
	if r.Details != "" {
		p.Facts = append(p.Facts, [2]string{"details", r.Details})
	}
	if len(r.Values) > 0 {
		p.Facts = append(p.Facts, [2]string{"values per repetition", reportview.Nums(r.Values)})
	}
	if c.Folder != "" {
		if f := filepath.Join(c.Folder, "rerun.sh"); fileExists(f) {
			p.RerunHref = hrefFromPage(out, f)
		}
		p.Evidence = cellEvidence(out, c)
		if ti.madePcapng != "" && fileExists(ti.madePcapng) {
			p.Evidence = append(p.Evidence, madeEvidence(out, ti))
		}
		p.OutputTail = tail(filepath.Join(c.Folder, "output.txt"), 60)
	}
	p.Repetitions = repetitions(out, c)
	p.SimNote, p.SimRows, p.SimStats = simFacts(c)
	p.Chart = template.HTML(emptySeq.Chart("bytes over time"))
	if ti.seq != nil {
		p.Chart = template.HTML(ti.seq.Chart("bytes over time (server-side trace)"))
	}
	p.ChartNote, p.PacketsNote, p.Packets = ti.seqNote, ti.packetsNote, ti.packets
	return p
}

var emptySeq TimeSeq

// madeEvidence lists the pcapng the report made (the run left none: its check stopped before the
// trace, or a suite without TLS).
func madeEvidence(out string, ti traceInfo) FolderEvidence {
	e := Evidence{Class: "pcapng", Name: "sim/trace_node_right.pcapng", Href: hrefFromPage(out, ti.madePcapng),
		Note: "decrypted: the cell's TLS secrets are embedded"}
	if !ti.madeWithSecrets {
		e.Note = "no TLS secrets (no endpoint wrote any), so not decrypted"
	}
	if st, err := os.Stat(ti.madePcapng); err == nil {
		e.Size = st.Size()
	}
	return FolderEvidence{Title: "made by this report from sim/trace_node_right.pcap (the run left no pcapng)", Files: []Evidence{e}}
}

func caseLabel(r matrix.Result) string {
	if r.Abbr != "" {
		return r.Case + " (" + r.Abbr + ")"
	}
	return r.Case
}

// repetitions lists a cell's --repeat repetitions, or a measurement's repetition folders.
func repetitions(out string, c *Cell) []repRow {
	var rows []repRow
	if c.R.Repeat != nil {
		for _, rep := range c.R.Repeat.Of {
			row := repRow{Name: filepath.Base(rep.Dir), Seed: fmt.Sprint(rep.Seed), Result: rep.Result, Seconds: fmt.Sprintf("%.1f", rep.Seconds), Reason: rep.Reason}
			if c.Folder != "" && isDir(filepath.Join(c.Folder, row.Name)) {
				row.Href = hrefFromPage(out, filepath.Join(c.Folder, row.Name)) + "/"
			}
			rows = append(rows, row)
		}
		return rows
	}
	folders := c.folders()
	if len(folders) < 2 {
		return nil
	}
	for i, f := range folders[1:] { // a measurement's repetitions: 1/, 2/, ...
		row := repRow{Name: filepath.Base(f), Href: hrefFromPage(out, f) + "/", Seed: seedOf(f, c.R.Rerun), Result: matrix.Succeeded}
		if i < len(c.R.Values) {
			row.Reason = fmt.Sprintf("%.0f kbps", c.R.Values[i])
		} else if c.R.Result != matrix.Succeeded {
			row.Result, row.Reason = c.R.Result, c.R.Reason
		}
		rows = append(rows, row)
	}
	return rows
}

var seedFlag = regexp.MustCompile(`--seed ([0-9]+)`)

// ansiEscape matches terminal control sequences (compose's logs erase lines with ESC[2K).
var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]")

// seedOf is the seed of a folder's run: from its rerun.sh, else from the cell's rerun command.
func seedOf(folder, rerun string) string {
	if data, err := os.ReadFile(filepath.Join(folder, "rerun.sh")); err == nil {
		if m := seedFlag.FindSubmatch(data); m != nil {
			return string(m[1])
		}
	}
	if m := seedFlag.FindStringSubmatch(rerun); m != nil {
		return m[1]
	}
	return ""
}

// simFacts is the sim's seed, profile and counters per direction, and its stats.json as is (the
// primary folder's: what the packet list and the chart show).
func simFacts(c *Cell) (note string, rows [][]string, stats string) {
	p := c.primary()
	if p == "" {
		return "No sim folder: the cell did not run a topology.", nil, ""
	}
	where := "the cell"
	if p != c.Folder {
		where = "repetition " + filepath.Base(p)
	}
	data, err := os.ReadFile(filepath.Join(p, "sim", "stats.json"))
	if err != nil {
		return fmt.Sprintf("Seed %s (%s, from its rerun command); no sim/stats.json (the sim did not stop cleanly).", orDash(seedOf(p, c.R.Rerun)), where), nil, ""
	}
	var st netem.Stats
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Sprintf("sim/stats.json (%s): %v", where, err), nil, string(data)
	}
	note = fmt.Sprintf("Seed %d, profile %s (phase %s), %d rebindings (%s, sim/stats.json):", st.Seed, orDash(st.Profile), orDash(st.Phase), st.Rebinds, where)
	rows = [][]string{{"direction", "packets in", "out", "dropped", "corrupted", "duplicated", "reordered", "CE marked", "max queue", "bytes out"}}
	for _, d := range []struct {
		name string
		l    netem.LinkStats
	}{{"client → server", st.ToServer}, {"server → client", st.ToClient}} {
		drop := fmt.Sprint(d.l.Dropped.Total())
		if d.l.Dropped.Total() > 0 {
			drop += fmt.Sprintf(" (loss %d, GE %d, queue %d, blackhole %d, droplist %d, NAT %d)", d.l.Dropped.Loss, d.l.Dropped.GELoss,
				d.l.Dropped.Queue, d.l.Dropped.Blackhole, d.l.Dropped.Droplist, d.l.Dropped.NAT)
		}
		rows = append(rows, []string{d.name, fmt.Sprint(d.l.PacketsIn), fmt.Sprint(d.l.PacketsOut), drop, fmt.Sprint(d.l.Corrupted),
			fmt.Sprint(d.l.Duplicated), fmt.Sprint(d.l.Reordered), fmt.Sprint(d.l.CEMarked),
			fmt.Sprintf("%d packets, %d bytes", d.l.MaxQueuePackets, d.l.MaxQueueBytes), fmt.Sprint(d.l.BytesOut)})
	}
	var b bytes.Buffer
	if json.Indent(&b, data, "", "  ") != nil {
		return note, rows, string(data)
	}
	if b.Len() > 32<<10 {
		return note, rows, b.String()[:32<<10] + "\n…"
	}
	return note, rows, b.String()
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// tail returns the last n lines of a file (at most its last 64 KiB).
func tail(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ""
	}
	const most = 64 << 10
	off := max(st.Size()-most, 0)
	buf := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(buf), "\n"), "\n")
	if off > 0 && len(lines) > 1 {
		lines = lines[1:] // the first line was cut
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		l = ansiEscape.ReplaceAllString(l, "")
		lines[i] = l
		if len(l) > 400 {
			lines[i] = l[:400] + " …"
		}
	}
	return strings.Join(lines, "\n")
}
