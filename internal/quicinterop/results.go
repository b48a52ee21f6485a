package quicinterop

import (
	"fmt"
	"github.com/wirelab/wirelab/internal/suite"
	"math"

	"github.com/wirelab/wirelab/internal/matrix"
)

func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// MeanStddev is the mean of values and their sample standard deviation (0 for one value).
func MeanStddev(values []float64) (m, sd float64) {
	if len(values) == 0 {
		return 0, 0
	}
	m = mean(values)
	var sq float64
	for _, v := range values {
		sq += (v - m) * (v - m)
	}
	if len(values) > 1 {
		sd = math.Sqrt(sq / float64(len(values)-1))
	}
	return m, sd
}

// measurementDetails is upstream's details text: the mean and standard deviation in kbps.
func measurementDetails(values []float64) string {
	if len(values) == 0 {
		return ""
	}
	m, sd := MeanStddev(values)
	return fmt.Sprintf("%.0f (± %.0f) kbps", m, sd)
}

// Summary is result.json in the upstream interop runner's layout (same fields and result
// words), so tools that read upstream results read ours.
type Summary struct {
	suite.RunTimes
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
func Summarize(cases []*Case, clients, servers []string, results []matrix.Result, urls map[string]string) Summary {
	s := Summary{Servers: servers, Clients: clients, URLs: urls, QUICVersion: "0x1", Tests: map[string]TestInfo{}}
	for _, c := range cases {
		if !c.IsMeasurement() { // upstream lists measurements in the results only
			s.Tests[c.Abbr] = TestInfo{Name: c.Name, Desc: c.Description}
		}
	}
	by := map[string]matrix.Result{}
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
					ms = append(ms, map[string]interface{}{"abbr": c.Abbr, "name": c.Name, "result": upstreamWord(r.Result), "details": r.Details})
				default:
					list = append(list, ResultEntry{Abbr: c.Abbr, Name: c.Name, Result: upstreamWord(r.Result)})
				}
			}
			s.Results = append(s.Results, list)
			s.Measurements = append(s.Measurements, ms)
		}
	}
	return s
}

// upstreamWord is a result in upstream's three words: an endpoint that answered 127 at run time
// is unsupported there, as upstream's runner calls it.
func upstreamWord(result string) string {
	if result == matrix.UnsupportedAtRunTime {
		return matrix.Unsupported
	}
	return result
}
