package matrix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// MaxRepeat bounds --repeat.
const MaxRepeat = 1000

// Repeats is what --repeat N (N > 1) adds to a cell's result: how many of its repetitions
// passed, and each repetition's outcome. A cell run once has none (results.jsonl lines of
// --repeat 1 runs are unchanged).
type Repeats struct {
	Passes int          `json:"passes"`
	Runs   int          `json:"runs"`
	Flaky  bool         `json:"flaky"` // 0 < passes < runs
	Of     []Repetition `json:"repetitions"`
}

// Repetition is one run of a cell's topology under --repeat, in <cell>/r<i>/ with its own seed
// (and its own rerun.sh naming that seed).
type Repetition struct {
	Seed    uint64  `json:"seed"`
	Result  string  `json:"result"`
	Reason  string  `json:"reason,omitempty"`
	Seconds float64 `json:"seconds"`
	Dir     string  `json:"dir"`
}

// RepeatSeed is the seed of repetition i (1-based) of a cell in a run with seed seed.
// Repetition 1 uses the run seed itself, so the first repetition of `--repeat N --seed S` is
// the cell of `--seed S`; every later one gets a splitmix64 mix of the seed and i (distinct for
// distinct i before the final shift), kept below 2^63 like the random run seeds.
func RepeatSeed(seed uint64, i int) uint64 {
	if i <= 1 {
		return seed
	}
	z := seed + uint64(i)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return z >> 1
}

// aggregate turns the repetitions of a cell into its verdict (the majority, for result.json):
// unsupported if any repetition was (an endpoint answered 127: more runs would not change it);
// else succeeded if more than half passed, so a tie (k = N/2) is failed. The reason names the
// pass rate and the first repetition that did not pass.
func aggregate(reps []Repetition) (result, reason string, rep Repeats) {
	rep = Repeats{Runs: len(reps), Of: reps}
	first := -1
	for i, r := range reps {
		if r.Result == Unsupported || r.Result == UnsupportedAtRunTime {
			return r.Result, fmt.Sprintf("r%d: %s", i+1, r.Reason), rep
		}
		if r.Result == Succeeded {
			rep.Passes++
		} else if first < 0 {
			first = i
		}
	}
	rep.Flaky = rep.Passes > 0 && rep.Passes < rep.Runs
	result = Failed
	if 2*rep.Passes > rep.Runs {
		result = Succeeded
	}
	if first >= 0 {
		flaky := ""
		if rep.Flaky {
			flaky = " (flaky)"
		}
		reason = fmt.Sprintf("%d/%d passed%s; r%d: %s", rep.Passes, rep.Runs, flaky, first+1, reps[first].Reason)
	}
	return result, reason, rep
}

// RepeatMode is how a cell's repetitions make its verdict.
type RepeatMode string

// The repetition modes; a suite chooses one per case (PlanCell.Policy).
const (
	// Majority (--repeat N): every repetition runs; the cell passed when k > N/2 did (a tie
	// failed), flaky when 0 < k < N.
	Majority RepeatMode = "majority"
	// AllMustPass (a measurement): repetitions run until one does not pass, which decides.
	AllMustPass RepeatMode = "all-must-pass"
	// RecordEvery (a benchmark): every repetition runs and is recorded, whatever the others did;
	// the first that did not pass decides.
	RecordEvery RepeatMode = "record-every"
)

// Policy is how many times a cell's topology runs, and how the runs make its verdict.
type Policy struct {
	Mode RepeatMode
	N    int
}

// Or is the policy, or when it is unset (a case without a policy of its own) the run's --repeat.
func (p Policy) Or(repeat int) Policy {
	if p.Mode == "" {
		return Policy{Mode: Majority, N: max(1, repeat)}
	}
	return p
}

// Once runs a cell's topology one time with seed, its output in dir, and returns its verdict
// (Result, Reason, Rerun: the command that runs this cell alone, Values, Details).
type Once func(ctx context.Context, seed uint64, dir string) Result

// Repeat runs a cell's topology as its policy says, one repetition after the other: once in dir
// when N <= 1 in Majority mode (the layout and result of a run without --repeat), else
// repetition i in dir/r<i>/ with seed RepeatSeed(seed, i), recorded in Repeat. A repetition that
// is unsupported ends the cell. res is the cell's result so far (its names); Repeat fills in the
// verdict, the reason, the rerun command, and every repetition's values in order.
func Repeat(ctx context.Context, p Policy, seed uint64, dir string, res Result, once Once) Result {
	if p.N <= 1 && (p.Mode == Majority || p.Mode == "") {
		one := once(ctx, seed, dir)
		res.Result, res.Reason, res.Rerun, res.Details, res.Values, res.Cross = one.Result, one.Reason, one.Rerun, one.Details, one.Values, one.Cross
		res.Subs, res.BySubs, res.Load = one.Subs, one.BySubs, one.Load
		return res
	}
	_ = os.RemoveAll(dir) // --resume reruns a cell from scratch, with every repetition
	var reps []Repetition
	subs := newSubRepetitions()
	bySubs := true // every repetition that did not pass failed by its sub-cases alone
	for i := 1; i <= max(p.N, 1) && ctx.Err() == nil; i++ {
		s, d := RepeatSeed(seed, i), filepath.Join(dir, fmt.Sprintf("r%d", i))
		start := time.Now()
		one := once(ctx, s, d)
		if ctx.Err() != nil {
			break // an interrupted repetition has no verdict
		}
		reps = append(reps, Repetition{Seed: s, Result: one.Result, Reason: one.Reason,
			Seconds: time.Since(start).Round(100 * time.Millisecond).Seconds(), Dir: d})
		subs.add(one.Subs, s, d)
		bySubs = bySubs && (one.Result == Succeeded || one.BySubs)
		res.Values, res.Cross = append(res.Values, one.Values...), append(res.Cross, one.Cross...)
		res.Load = max(res.Load, one.Load)
		if i == 1 && one.Rerun != "" {
			res.Rerun = one.Rerun
			if p.Mode == Majority {
				res.Rerun = fmt.Sprintf("%s --repeat %d", one.Rerun, p.N)
			}
		}
		if one.Result == Unsupported || one.Result == UnsupportedAtRunTime || (p.Mode == AllMustPass && one.Result != Succeeded) {
			break
		}
	}
	var rep Repeats
	if p.Mode == Majority {
		res.Result, res.Reason, rep = aggregate(reps)
	} else {
		res.Result, res.Reason, rep = firstDecides(reps)
	}
	res.Repeat = &rep
	res.Subs = subs.results(p.Mode)
	res.BySubs = bySubs && len(res.Subs) > 0 && res.Result != Succeeded
	return res
}

// subRepetitions collects each sub-case's outcome in every repetition of its cell, so a
// sub-case gets a pass rate of its own (a flaky h2spec case among 145 steady ones).
type subRepetitions struct {
	order []string
	by    map[string][]Repetition
}

func newSubRepetitions() *subRepetitions { return &subRepetitions{by: map[string][]Repetition{}} }

func (s *subRepetitions) add(subs []Result, seed uint64, dir string) {
	for _, x := range subs {
		if _, seen := s.by[x.Sub]; !seen {
			s.order = append(s.order, x.Sub)
		}
		s.by[x.Sub] = append(s.by[x.Sub], Repetition{Seed: seed, Result: x.Result, Reason: x.Reason, Dir: dir})
	}
}

func (s *subRepetitions) results(mode RepeatMode) []Result {
	var out []Result
	for _, name := range s.order {
		r := Result{Cell: Cell{Sub: name}}
		var rep Repeats
		if mode == Majority {
			r.Result, r.Reason, rep = aggregate(s.by[name])
		} else {
			r.Result, r.Reason, rep = firstDecides(s.by[name])
		}
		r.Repeat = &rep
		out = append(out, r)
	}
	return out
}

// firstDecides is the verdict of AllMustPass and RecordEvery: the first repetition that did not
// pass decides (unsupported or failed, with its reason); the cell passed when every one did.
func firstDecides(reps []Repetition) (result, reason string, rep Repeats) {
	rep = Repeats{Runs: len(reps), Of: reps}
	result = Succeeded
	for i, r := range reps {
		if r.Result == Succeeded {
			rep.Passes++
			continue
		}
		if result == Succeeded {
			result, reason = r.Result, fmt.Sprintf("r%d: %s", i+1, r.Reason)
		}
	}
	if len(reps) == 0 {
		result, reason = Failed, "no repetition ran"
	}
	return result, reason, rep
}
