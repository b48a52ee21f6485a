package covgate

import (
	"encoding/json"
	"fmt"
	"os"
)

// GcovrSummary is the part of gcovr's --json-summary output wirelab reads.
type GcovrSummary struct {
	LineCovered     int `json:"line_covered"`
	LineTotal       int `json:"line_total"`
	BranchCovered   int `json:"branch_covered"`
	BranchTotal     int `json:"branch_total"`
	FunctionCovered int `json:"function_covered"`
	FunctionTotal   int `json:"function_total"`
	Files           []struct {
		Filename string `json:"filename"`
	} `json:"files"`
}

// ReadGcovrSummary reads a gcovr --json-summary file.
func ReadGcovrSummary(path string) (GcovrSummary, error) {
	var s GcovrSummary
	data, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// Measured returns the summary's counts per metric.
func (s GcovrSummary) Measured() Measured {
	return Measured{
		"lines":     {s.LineCovered, s.LineTotal},
		"branches":  {s.BranchCovered, s.BranchTotal},
		"functions": {s.FunctionCovered, s.FunctionTotal},
	}
}

// Metric is one metric in the combined summary.
type Metric struct {
	Counts
	Percent   float64  `json:"percent"`
	Threshold *float64 `json:"threshold,omitempty"`
}

// TargetSummary is one target in out/coverage/summary.json.
type TargetSummary struct {
	Kind        string            `json:"kind"`
	CorpusFiles int               `json:"corpus_files,omitempty"`
	Files       []string          `json:"gated_files"`              // the gate's file set, as measured
	Functions   []string          `json:"only_functions,omitempty"` // the gate\'s only_functions patterns
	Gate        map[string]Metric `json:"gate"`                     // the gated file set per metric
	Whole       map[string]Metric `json:"whole"`                    // everything measured (whole library / all Go code)
	Broken      []Broken          `json:"broken"`                   // empty when the gate holds
	Reports     map[string]string `json:"reports"`                  // format -> path relative to out/coverage
	Error       string            `json:"error,omitempty"`          // the target could not be measured
}

// Summary is out/coverage/summary.json.
type Summary struct {
	RunID   string                    `json:"run_id"`
	Gates   string                    `json:"gates_file"`
	Passed  bool                      `json:"passed"`
	Targets map[string]*TargetSummary `json:"targets"`
}

// MetricTable builds the per-metric summary of m with g's thresholds (g may be nil).
func MetricTable(m Measured, g *Gate) map[string]Metric {
	out := map[string]Metric{}
	for _, metric := range Metrics {
		c, ok := m[metric]
		if !ok {
			continue
		}
		mm := Metric{Counts: c, Percent: c.Percent()}
		if g != nil {
			mm.Threshold = g.Thresholds[metric]
		}
		out[metric] = mm
	}
	return out
}

// ReadSummary reads out/coverage/summary.json and returns each measured target's gate counts.
func ReadSummary(path string) (*Summary, map[string]Measured, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var s Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	m := map[string]Measured{}
	for name, t := range s.Targets {
		if t.Error != "" || t.Gate == nil {
			continue
		}
		mm := Measured{}
		for metric, v := range t.Gate {
			mm[metric] = v.Counts
		}
		m[name] = mm
	}
	return &s, m, nil
}
