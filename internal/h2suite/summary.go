package h2suite

import (
	"github.com/wirelab/wirelab/internal/matrix"

	"github.com/wirelab/wirelab/internal/suite"
)

// Summary is the h2 run's result.json: the sections, and per server each section's verdict.
type Summary struct {
	suite.RunTimes
	Profile  string                 `json:"profile"`
	Servers  []string               `json:"servers"`
	URLs     map[string]string      `json:"urls"`
	Sections map[string]SectionInfo `json:"sections"`
	Results  []ServerResults        `json:"results"`
}

// SectionInfo describes a section in result.json.
type SectionInfo struct {
	Name        string `json:"name"`
	Requirement string `json:"requirement"`
	Desc        string `json:"desc"`
	Client      string `json:"client"`
}

// ServerResults are one server's verdicts, in section order; cells not run are left out.
type ServerResults struct {
	Server  string        `json:"server"`
	Results []EntryResult `json:"results"`
}

// EntryResult is one section's verdict for a server.
type EntryResult struct {
	Abbr    string `json:"abbr"`
	Name    string `json:"name"`
	Result  string `json:"result"`
	Reason  string `json:"reason,omitempty"`
	Details string `json:"details,omitempty"`
}

// Summarize builds result.json from the run's results.
func Summarize(sections []*Section, servers []Server, results []matrix.Result, profile string) Summary {
	s := Summary{Profile: profile, URLs: map[string]string{}, Sections: map[string]SectionInfo{}}
	for _, sec := range sections {
		s.Sections[sec.Abbr] = SectionInfo{Name: sec.Name, Requirement: sec.Requirement, Desc: sec.Description, Client: sec.Client}
	}
	by := map[string]matrix.Result{}
	for _, r := range results {
		by[r.Server+"|"+r.Case] = r
	}
	for _, sv := range servers {
		s.Servers, s.URLs[sv.Name] = append(s.Servers, sv.Name), sv.URL
		sr := ServerResults{Server: sv.Name, Results: []EntryResult{}}
		for _, sec := range sections {
			if r, ok := by[sv.Name+"|"+sec.Name]; ok {
				sr.Results = append(sr.Results, EntryResult{Abbr: sec.Abbr, Name: sec.Name, Result: r.Result, Reason: r.Reason, Details: r.Details})
			}
		}
		s.Results = append(s.Results, sr)
	}
	return s
}
