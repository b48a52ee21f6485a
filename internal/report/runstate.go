package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/matrix"
)

// RunState is what a run's folder says beside its journal: whether it judged its whole plan
// (result.json, written at its end) and how it was invoked (run.json).
type RunState struct {
	// Summary: result.json was read; Recorded: it says whether the run judged its whole plan
	// (Whole) and how much of it (Done); runs of an older wirelab do not.
	Summary, Recorded, Whole bool
	Done                     matrix.Completeness
	Problem                  string   // result.json is there but unreadable
	Args                     []string // run.json's args: the flags that chose the matrix
}

// Complete reports whether the run judged its whole plan: never for a run without result.json
// (still running, or stopped before its end) or one that says it did not.
func (s RunState) Complete() bool { return s.Summary && (!s.Recorded || s.Whole) }

// Incompleteness says how the run falls short ("" when it is complete).
func (s RunState) Incompleteness(journaled int) string {
	switch {
	case s.Problem != "":
		return s.Problem
	case !s.Summary:
		return fmt.Sprintf("no result.json: the run has not finished (still running, or stopped before its end); %d cells journaled", journaled)
	case s.Recorded && !s.Whole:
		return fmt.Sprintf("ran %d of %d planned cells (interrupted, timed out or partially merged)", s.Done.Ran, s.Done.Planned)
	}
	return ""
}

// readState reads dir's result.json and run.json; either may be missing.
func readState(dir string) RunState {
	var s RunState
	if data, err := os.ReadFile(filepath.Join(dir, "result.json")); err == nil {
		var sum struct {
			Complete *bool `json:"complete"`
			matrix.Completeness
		}
		if err := json.Unmarshal(data, &sum); err != nil {
			s.Problem = fmt.Sprintf("%s: %v", filepath.Join(dir, "result.json"), err)
		} else {
			s.Summary, s.Recorded, s.Done = true, sum.Complete != nil, sum.Completeness
			s.Whole = s.Recorded && *sum.Complete
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "run.json")); err == nil {
		var info struct {
			Args []string `json:"args"`
		}
		if json.Unmarshal(data, &info) == nil {
			s.Args = info.Args
		}
	}
	return s
}
