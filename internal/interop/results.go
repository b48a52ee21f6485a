package interop

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"sort"
	"sync"
)

// Result words, as upstream's result.json uses them.
const (
	Succeeded   = "succeeded"
	Failed      = "failed"
	Unsupported = "unsupported"
)

// CellResult is one client x server x case verdict: a line of results.jsonl.
type CellResult struct {
	Server  string  `json:"server"`
	Client  string  `json:"client"`
	Case    string  `json:"case"`
	Abbr    string  `json:"abbr"`
	Result  string  `json:"result"`
	Reason  string  `json:"reason,omitempty"` // one line: which check failed and why
	Seconds float64 `json:"seconds"`
	Dir     string  `json:"dir"`
	Rerun   string  `json:"rerun"`
	// Measurements: one value per repetition (kbit/s) and upstream's details line.
	Values  []float64 `json:"values,omitempty"`
	Cross   []float64 `json:"cross_traffic_kbps,omitempty"` // crosstraffic: the TCP flow's mean per repetition
	Details string    `json:"details,omitempty"`
	// --repeat N > 1 (non-measurement cells): the pass rate k/N, flaky when 0 < k < N, and each
	// repetition; Result is then the majority (k > N/2; a tie is failed). Absent when run once.
	Repeat *Repeats `json:"repeat,omitempty"`
}

func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// measurementDetails is upstream's details text: the mean and standard deviation in kbps.
func measurementDetails(values []float64) string {
	if len(values) == 0 {
		return ""
	}
	var sq float64
	m := mean(values)
	for _, v := range values {
		sq += (v - m) * (v - m)
	}
	sd := 0.0
	if len(values) > 1 {
		sd = math.Sqrt(sq / float64(len(values)-1))
	}
	return fmt.Sprintf("%.0f (± %.0f) kbps", m, sd)
}

// Journal appends cell results to results.jsonl as they finish, so an interrupted run keeps
// them and --resume can skip them.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
}

// OpenJournal opens (appending) path and returns the results already in it.
func OpenJournal(path string) (*Journal, []CellResult, error) {
	var done []CellResult
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r CellResult
			if json.Unmarshal(sc.Bytes(), &r) == nil && r.Result != "" {
				done = append(done, r)
			}
		}
		f.Close()
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return &Journal{f: f, path: path}, done, nil
}

// Add writes one result line and syncs it. A write that fails (a full disk) is cut back to
// where the file ended, so the journal never holds half a line that the next one would spoil.
func (j *Journal) Add(r CellResult) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	st, err := j.f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", j.path, err)
	}
	_, err = j.f.Write(append(line, '\n'))
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		_ = j.f.Truncate(st.Size())
		return fmt.Errorf("%s: %w", j.path, err)
	}
	return nil
}

// Close closes the journal.
func (j *Journal) Close() error { return j.f.Close() }

// Summary is result.json in the upstream interop runner's layout (same fields and result
// words), so tools that read upstream results read ours.
type Summary struct {
	StartTime    float64                    `json:"start_time"`
	EndTime      float64                    `json:"end_time"`
	LogDir       string                     `json:"log_dir"`
	Servers      []string                   `json:"servers"`
	Clients      []string                   `json:"clients"`
	URLs         map[string]string          `json:"urls"`
	QUICVersion  string                     `json:"quic_version"`
	Tests        map[string]TestInfo        `json:"tests"`
	Results      [][]ResultEntry            `json:"results"`
	Measurements [][]map[string]interface{} `json:"measurements"`
}

// TestInfo describes a test case in result.json.
type TestInfo struct {
	Name string `json:"name"`
	Desc string `json:"desc"`
}

// ResultEntry is one test's result for a client x server pair.
type ResultEntry struct {
	Abbr   string `json:"abbr"`
	Name   string `json:"name"`
	Result string `json:"result"`
}

// Summarize builds result.json: one list per pair, client-major (clients outer, servers inner),
// each in case order. Cells not run (interrupted) are left out of their pair's list.
func Summarize(cases []*Case, clients, servers []string, results []CellResult, urls map[string]string) Summary {
	s := Summary{Servers: servers, Clients: clients, URLs: urls, QUICVersion: "0x1", Tests: map[string]TestInfo{}}
	for _, c := range cases {
		if !c.IsMeasurement() { // upstream lists measurements in the results only
			s.Tests[c.Abbr] = TestInfo{Name: c.Name, Desc: c.Description}
		}
	}
	by := map[string]CellResult{}
	for _, r := range results {
		by[r.Client+"|"+r.Server+"|"+r.Case] = r
	}
	for _, cl := range clients {
		for _, sv := range servers {
			list, ms := []ResultEntry{}, []map[string]interface{}{}
			for _, c := range cases {
				r, ok := by[cl+"|"+sv+"|"+c.Name]
				switch {
				case !ok:
				case c.IsMeasurement():
					ms = append(ms, map[string]interface{}{"abbr": c.Abbr, "name": c.Name, "result": r.Result, "details": r.Details})
				default:
					list = append(list, ResultEntry{Abbr: c.Abbr, Name: c.Name, Result: r.Result})
				}
			}
			s.Results = append(s.Results, list)
			s.Measurements = append(s.Measurements, ms)
		}
	}
	return s
}

// WriteJUnit writes junit.xml: one testsuite per pair, one testcase per cell; failures carry
// the one-line reason, unsupported cells are skipped.
func WriteJUnit(path string, results []CellResult) error {
	type failure struct {
		Message string `xml:"message,attr"`
	}
	type skipped struct {
		Message string `xml:"message,attr"`
	}
	type property struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	type properties struct {
		List []property `xml:"property"`
	}
	type tc struct {
		Name       string      `xml:"name,attr"`
		Classname  string      `xml:"classname,attr"`
		Time       string      `xml:"time,attr"`
		Properties *properties `xml:"properties,omitempty"`
		Failure    *failure    `xml:"failure,omitempty"`
		Skipped    *skipped    `xml:"skipped,omitempty"`
		SystemOut  string      `xml:"system-out,omitempty"`
	}
	type suite struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []tc   `xml:"testcase"`
	}
	suites := map[string]*suite{}
	for _, r := range results {
		name := r.Server + "_" + r.Client
		s := suites[name]
		if s == nil {
			s = &suite{Name: name}
			suites[name] = s
		}
		c := tc{Name: r.Case, Classname: "quic." + name, Time: fmt.Sprintf("%.1f", r.Seconds)}
		if rp := r.Repeat; rp != nil { // --repeat: the pass rate and each repetition's outcome
			props := []property{{"passed", r.PassRate()}, {"flaky", fmt.Sprint(rp.Flaky)}}
			for i, x := range rp.Of {
				props = append(props, property{fmt.Sprintf("r%d", i+1), fmt.Sprintf("%s (seed %d)", x.Result, x.Seed)})
			}
			c.Properties = &properties{props}
			if r.Result == Succeeded && r.Reason != "" {
				c.SystemOut = r.Reason // a flaky cell that passed by majority: which repetition did not
			}
		}
		switch r.Result {
		case Failed:
			c.Failure = &failure{Message: r.Reason}
			s.Failures++
		case Unsupported:
			c.Skipped = &skipped{Message: "unsupported: " + r.Reason}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	var names []string
	for n := range suites {
		names = append(names, n)
	}
	sort.Strings(names)
	doc := struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []suite  `xml:"testsuite"`
	}{}
	for _, n := range names {
		doc.Suites = append(doc.Suites, *suites[n])
	}
	data, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(data, '\n')...), 0o644)
}
