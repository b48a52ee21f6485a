package matrix

import "fmt"

// Completeness is how much of its plan a run judged: an interrupted, timed-out or partial run
// is never taken for a whole one.
type Completeness struct {
	Planned int `json:"planned"` // the cells of this run's plan (its shard's)
	Ran     int `json:"ran"`     // of them, those with a verdict (unsupported included)
}

// Complete reports whether every planned cell has a verdict.
func (c Completeness) Complete() bool { return c.Ran >= c.Planned }

func (c Completeness) String() string {
	if c.Complete() {
		return fmt.Sprintf("complete: all %d planned cells judged", c.Planned)
	}
	return fmt.Sprintf("INCOMPLETE: ran %d of %d planned cells", c.Ran, c.Planned)
}

// Measure counts the plan's cells that have a whole-cell result.
func Measure(plan []PlanCell, results []Result) Completeness {
	have := map[string]bool{}
	for _, r := range results {
		if r.Sub == "" {
			have[r.Key()] = true
		}
	}
	c := Completeness{Planned: len(plan)}
	for _, p := range plan {
		if have[p.Key()] {
			c.Ran++
		}
	}
	return c
}
