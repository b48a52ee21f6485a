package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/wirelab/wirelab/conformance/h2"
)

// reportFormat is report.json's version. 2: a skipped verdict names the server behaviour that
// made its case impossible to judge in "skip" (h2.SkipCauses); 1 (no "format") had none.
const reportFormat = 2

// report is report.json: the run's parameters, a summary and one verdict per case under "cases"
// (the key the h2 suite reads).
type report struct {
	Format       int            `json:"format"`
	Tool         string         `json:"tool"`
	Addr         string         `json:"addr"`
	ServerName   string         `json:"servername"`
	Started      time.Time      `json:"started"`
	ElapsedMS    int64          `json:"elapsed_ms"`
	TimeoutScale float64        `json:"timeout_scale"`
	Summary      map[string]int `json:"summary"`
	Cases        []h2.Verdict   `json:"cases"`
}

func newReport(t *h2.Target, start time.Time, verdicts []h2.Verdict) *report {
	r := &report{
		Format:       reportFormat,
		Tool:         "h2check",
		Addr:         t.Addr,
		ServerName:   t.TLS.ServerName,
		Started:      start.UTC(),
		ElapsedMS:    time.Since(start).Milliseconds(),
		TimeoutScale: t.TimeScale,
		Summary:      map[string]int{h2.Passed: 0, h2.Failed: 0, h2.Skipped: 0},
		Cases:        verdicts,
	}
	for _, v := range verdicts {
		r.Summary[v.Result]++
	}
	return r
}

// checkWritable fails early when the report could not be written, before any case runs.
func checkWritable(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".report-*.json")
	if err != nil {
		return err
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}
