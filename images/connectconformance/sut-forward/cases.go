package main

import (
	"encoding/json"
	"os"
	"slices"
)

// caseOutcome is one line of the --cases file: one conformance case of one config.
type caseOutcome struct {
	Config string `json:"config"`
	Case   string `json:"case"`
	Result string `json:"result"` // passed, failed or hung
}

// writeCases writes every case each config's completed run sent, and the hung ones: failed when
// connectconformance reported it FAILED, hung when it never answered, else passed. A config that
// never completed has no passed cases to list (its cases' outcomes are unknown).
func writeCases(path string, outcomes []*outcome) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, o := range outcomes {
		for _, name := range o.sent {
			result := "passed"
			if slices.Contains(o.failed, name) {
				result = "failed"
			}
			if err := enc.Encode(caseOutcome{o.label, name, result}); err != nil {
				f.Close()
				return err
			}
		}
		for _, name := range o.failed {
			if !slices.Contains(o.sent, name) { // failed without being sent (a client-side failure)
				if err := enc.Encode(caseOutcome{o.label, name, "failed"}); err != nil {
					f.Close()
					return err
				}
			}
		}
		for _, name := range o.hung {
			if err := enc.Encode(caseOutcome{o.label, name, "hung"}); err != nil {
				f.Close()
				return err
			}
		}
	}
	return f.Close()
}
