package h2suite

import (
	"encoding/xml"
	"fmt"
	"os"
	"strings"

	"github.com/wirelab/wirelab/conformance/h2"
	"github.com/wirelab/wirelab/internal/matrix"
)

// H2specCase is one h2spec test case's outcome: its ID as h2spec selects it ("http2/6.9.1/2"),
// what it checks, and passed / failed / skipped.
type H2specCase struct {
	ID      string `json:"id"`
	Desc    string `json:"desc"`
	Result  string `json:"result"`
	Message string `json:"message,omitempty"` // h2spec's expected/actual, or its error
}

// Outcomes of an h2spec case, in the words of wirelab's own cases (conformance/h2): h2spec's
// JUnit says them by element (failure, error, skipped).
const (
	CasePassed  = h2.Passed
	CaseFailed  = h2.Failed
	CaseSkipped = h2.Skipped
)

// ReadH2specJUnit reads h2spec's own JUnit report. h2spec puts every failed expectation in
// <failure> or <error> (which one depends on its Go error type, not on who is at fault), so both
// count as failed; <skipped> (the server's response body was too short, say) is skipped.
// A case's ID is its suite's package and its 1-based place in it: h2spec numbers them so.
func ReadH2specJUnit(path string) ([]H2specCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Suites []struct {
			Package string `xml:"package,attr"`
			Cases   []struct {
				Desc    string   `xml:"classname,attr"`
				Failure *content `xml:"failure"`
				Error   *content `xml:"error"`
				Skipped *content `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(xmlSafe(data), &doc); err != nil {
		return nil, fmt.Errorf("%s: not h2spec's JUnit report: %v", path, err)
	}
	var out []H2specCase
	for _, s := range doc.Suites {
		for i, c := range s.Cases {
			hc := H2specCase{ID: fmt.Sprintf("%s/%d", s.Package, i+1), Desc: c.Desc, Result: CasePassed}
			switch {
			case c.Failure != nil:
				hc.Result, hc.Message = CaseFailed, oneLine(c.Failure.Text)
			case c.Error != nil:
				hc.Result, hc.Message = CaseFailed, oneLine(c.Error.Text)
			case c.Skipped != nil:
				hc.Result = CaseSkipped
			}
			out = append(out, hc)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: h2spec's JUnit report holds no test case", path)
	}
	return out, nil
}

// xmlSafe replaces the control characters XML 1.0 forbids: h2spec writes a failure's "Actual"
// text unescaped (innerxml), and a peer's frame payload can hold NUL bytes there.
func xmlSafe(data []byte) []byte {
	out := append([]byte(nil), data...)
	for i, b := range out {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' {
			out[i] = '?'
		}
	}
	return out
}

type content struct {
	Text string `xml:",chardata"`
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// H2specVerdict is a section's verdict from h2spec's cases: passed when none failed; the
// reason lists the failed IDs; details count all three outcomes, skips included, never hidden.
func H2specVerdict(cases []H2specCase) (passed bool, reason, details string) {
	var failed []string
	skipped := 0
	for _, c := range cases {
		switch c.Result {
		case CaseFailed:
			failed = append(failed, c.ID)
		case CaseSkipped:
			skipped++
		}
	}
	details = fmt.Sprintf("h2spec: %d passed, %d failed, %d skipped of %d", len(cases)-len(failed)-skipped, len(failed), skipped, len(cases))
	if len(failed) == 0 {
		return true, "", details
	}
	list := failed
	if len(list) > 12 {
		list = append(append([]string(nil), list[:12]...), fmt.Sprintf("... %d more", len(failed)-12))
	}
	return false, fmt.Sprintf("h2spec: %d of %d cases failed: %s", len(failed), len(cases), strings.Join(list, " ")), details
}

// H2specSubs are h2spec's cases as the cell's sub-cases (sub = the case's ID): each a result of
// its own, with h2spec's message as the reason; a case h2spec skipped for what the server did
// (its answer too short to judge) is unsupported at run time.
func H2specSubs(cases []H2specCase) []matrix.Result {
	out := make([]matrix.Result, len(cases))
	for i, c := range cases {
		out[i] = matrix.Result{Cell: matrix.Cell{Sub: c.ID}, Result: matrix.Succeeded}
		switch c.Result {
		case CaseFailed:
			out[i].Result, out[i].Reason = matrix.Failed, c.Desc+": "+c.Message
		case CaseSkipped:
			out[i].Result, out[i].Reason = matrix.UnsupportedAtRunTime, c.Desc+": skipped by h2spec"
		}
	}
	return out
}
