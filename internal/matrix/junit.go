package matrix

import (
	"encoding/xml"
	"fmt"
	"os"
	"sort"
)

// WriteJUnit writes junit.xml: one testsuite per pair, one testcase per cell (classname
// <suite>.<server>_<client>); failures carry the one-line reason, unsupported cells are skipped.
// A testsuite "run" holds one testcase, "complete", that fails when the run judged less than
// its plan.
func WriteJUnit(path, suiteName string, done Completeness, results []Result) error {
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
		name := r.Slot() + "_" + r.Client
		s := suites[name]
		if s == nil {
			s = &suite{Name: name}
			suites[name] = s
		}
		caseName := r.Case
		if r.Sub != "" {
			caseName += "/" + r.Sub
		}
		c := tc{Name: caseName, Classname: suiteName + "." + name, Time: fmt.Sprintf("%.1f", r.Seconds)}
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
		case UnsupportedAtRunTime: // declared supported, it ran: a failure unless the baseline expects it
			c.Failure = &failure{Message: "unsupported at run time: " + r.Reason}
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	run := &suite{Name: "run", Tests: 1}
	whole := tc{Name: "complete", Classname: suiteName + ".run", SystemOut: done.String()}
	if !done.Complete() {
		whole.Failure, run.Failures = &failure{Message: done.String()}, 1
	}
	run.Cases = []tc{whole}
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
	doc.Suites = append(doc.Suites, *run) // last: the cells' suites keep their order
	data, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(data, '\n')...), 0o644)
}
