package livefuzz

import (
	"fmt"
	"io"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// Summary is fuzz-live's result.json: per campaign its numbers, sub-cases and findings.
type Summary struct {
	suite.RunTimes
	Campaigns []CampaignSummary `json:"campaigns"`
}

// CampaignSummary is one cell of result.json.
type CampaignSummary struct {
	Target       string           `json:"target"`
	Campaign     string           `json:"campaign"`
	Result       string           `json:"result"`
	Reason       string           `json:"reason,omitempty"`
	Inputs       int              `json:"inputs"`
	InputsPerSec float64          `json:"inputs_per_second"`
	Seconds      float64          `json:"seconds"`
	Coverage     int              `json:"coverage_keys"`
	Subs         []SubSummary     `json:"subs"`
	Findings     []FindingSummary `json:"findings"`
	Dir          string           `json:"dir"`
}

// SubSummary is one oracle's or rule's verdict in a campaign.
type SubSummary struct {
	Sub    string `json:"sub"`
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
}

// FindingSummary is one finding and the command that replays it.
type FindingSummary struct {
	Oracle string `json:"oracle"`
	Line   string `json:"line"`
	Hits   int    `json:"hits"`
	Repro  string `json:"repro"`
}

func summarize(_ *suite.Run, results []matrix.Result) *Summary {
	s := &Summary{Campaigns: []CampaignSummary{}}
	idx := map[string]int{}
	for _, r := range results {
		k := r.Server + "|" + r.Case
		if r.Sub != "" {
			if i, ok := idx[k]; ok {
				s.Campaigns[i].Subs = append(s.Campaigns[i].Subs, SubSummary{Sub: r.Sub, Result: r.Result, Reason: r.Reason})
			}
			continue
		}
		c := CampaignSummary{Target: r.Server, Campaign: r.Case, Result: r.Result, Reason: r.Reason, Dir: r.Dir, Subs: []SubSummary{}, Findings: []FindingSummary{}}
		var st stats
		if r.Dir != "" && jsonfile.Read(r.Dir+"/"+fuzzOut+"/stats.json", &st) == nil {
			c.Inputs, c.InputsPerSec, c.Seconds = st.Inputs, st.InputsPerSec, st.Seconds
		}
		var cov struct {
			Keys int `json:"keys"`
		}
		if r.Dir != "" && jsonfile.Read(r.Dir+"/"+fuzzOut+"/coverage.json", &cov) == nil {
			c.Coverage = cov.Keys
		}
		for _, f := range findings(r.Dir) {
			c.Findings = append(c.Findings, FindingSummary{Oracle: f.Oracle, Line: f.Line(), Hits: f.Hits, Repro: "make fuzz-repro FINDING=" + f.Dir})
		}
		idx[k] = len(s.Campaigns)
		s.Campaigns = append(s.Campaigns, c)
	}
	return s
}

// printTable prints a line per campaign, then every finding with its replay command.
func printTable(w io.Writer, r *suite.Run, results []matrix.Result) {
	s := summarize(r, results)
	fmt.Fprintf(w, "\n%-12s %-11s %-9s %8s %7s %8s %8s\n", "target", "campaign", "result", "inputs", "per s", "coverage", "findings")
	for _, c := range s.Campaigns {
		fmt.Fprintf(w, "%-12s %-11s %-9s %8d %7.1f %8d %8d\n", c.Target, c.Campaign, c.Result, c.Inputs, c.InputsPerSec, c.Coverage, len(c.Findings))
	}
	for _, c := range s.Campaigns {
		for _, f := range c.Findings {
			fmt.Fprintf(w, "  %s/%s: %s (%d hits)\n      %s\n", c.Target, c.Campaign, f.Line, f.Hits, f.Repro)
		}
	}
}
