package grpcwebsuite

import (
	"github.com/wirelab/wirelab/internal/matrix"

	"github.com/wirelab/wirelab/internal/suite"
)

// Summary is the gRPC-web run's result.json: what ran, and per chain, server and client each
// case's verdict (after the comparison with the direct chain).
type Summary struct {
	suite.RunTimes
	Profile string            `json:"profile"`
	Chains  map[string]string `json:"chains"` // name -> description
	Cases   map[string]string `json:"cases"`  // abbr -> name
	Results []ChainResults    `json:"results"`
}

// ChainResults are one chain x server x client's verdicts, in case order.
type ChainResults struct {
	Chain   string        `json:"chain"`
	Server  string        `json:"server"`
	Client  string        `json:"client"`
	Results []EntryResult `json:"results"`
}

// EntryResult is one case's verdict.
type EntryResult struct {
	Abbr   string `json:"abbr"`
	Name   string `json:"name"`
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
}

// Summarize builds result.json from the compared results.
func Summarize(m *Matrix, results []matrix.Result, profile string) Summary {
	s := Summary{Profile: profile, Chains: map[string]string{}, Cases: map[string]string{}}
	for _, c := range m.Cases {
		s.Cases[c.Abbr] = c.Name
	}
	by := map[string]matrix.Result{}
	for _, r := range results {
		by[r.Key()] = r
	}
	for _, ch := range m.Chains {
		s.Chains[ch.Name] = ch.Description
	}
	rows := map[string]int{} // server slot|client -> index in s.Results, in cell order
	for _, c := range m.Cells() {
		k := c.Slot() + "|" + c.Client
		i, ok := rows[k]
		if !ok {
			i, rows[k] = len(s.Results), len(s.Results)
			s.Results = append(s.Results, ChainResults{Chain: c.Get(AxisChain), Server: c.Server, Client: c.Client, Results: []EntryResult{}})
		}
		if r, ok := by[c.Key()]; ok {
			s.Results[i].Results = append(s.Results[i].Results, EntryResult{Abbr: c.Abbr, Name: c.Case, Result: r.Result, Reason: r.Reason})
		}
	}
	return s
}
