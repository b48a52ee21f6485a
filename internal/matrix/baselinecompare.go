package matrix

import "fmt"

// BaselineReport is a run held against its baseline.
type BaselineReport struct {
	Regressions  []Regression // did not pass, and no entry expects it as it happened
	Expected     []Result     // failed (or unsupported at run time) as an entry expects
	FlakyWithin  []Result     // a flaky entry's cell whose repetitions kept its measured rate
	FlakyOnce    []Result     // a flaky entry's cell run once: shown, decides nothing
	NewlyPassing []Result     // passed every run where an entry expects a failure: the entry is stale
	Untriaged    []*Expectation
}

// Regression is a result the baseline does not expect, and why.
type Regression struct {
	Result
	Why string
}

// Compare holds results against the baseline. Manifest-declared unsupported cells count for
// nothing; a cell judged by its sub-cases (BySubs) is judged through them; everything else
// that did not pass needs an entry that expects it as it happened: a failure's signature, a
// flaky rate the repetitions keep, an unsupported-at-run-time entry.
func (b *Baseline) Compare(results []Result) BaselineReport {
	var rep BaselineReport
	regress := func(r Result, format string, a ...any) {
		rep.Regressions = append(rep.Regressions, Regression{r, fmt.Sprintf(format, a...)})
	}
	for _, x := range b.Expected {
		if x.Untriaged {
			rep.Untriaged = append(rep.Untriaged, x)
		}
	}
	for _, r := range results {
		if r.Result == Unsupported || (r.BySubs && r.Sub == "") {
			continue
		}
		x := b.match(r)
		sig := Signature(r)
		switch {
		case x == nil && r.Result == Succeeded:
		case x == nil && r.Result == UnsupportedAtRunTime:
			regress(r, "unsupported at run time, declared supported: %s", r.Reason)
		case x == nil:
			regress(r, "%s", r.Reason)
		case x.Status == ExpectFlaky:
			b.judgeFlaky(&rep, x, r, regress)
		case r.Result == Succeeded:
			rep.NewlyPassing = append(rep.NewlyPassing, r)
		case (r.Result == UnsupportedAtRunTime) != (x.Status == ExpectUnsupported):
			regress(r, "expected %s, got %s: %s", x.Status, r.Result, r.Reason)
		case !sigMatch(x.Signature, sig):
			regress(r, "expected %q, got %q", x.Signature, sig)
		default:
			rep.Expected = append(rep.Expected, r)
		}
	}
	return rep
}

// judgeFlaky holds a flaky entry's cell to its measured pass rate: repetitions with
// significantly fewer passes are a regression (BelowRate); a cell run once decides nothing.
func (b *Baseline) judgeFlaky(rep *BaselineReport, x *Expectation, r Result, regress func(Result, string, ...any)) {
	if r.Repeat == nil || r.Repeat.Runs < 2 {
		rep.FlakyOnce = append(rep.FlakyOnce, r)
		return
	}
	if below, p := BelowRate(r.Repeat.Passes, r.Repeat.Runs, x.PassRate); below {
		regress(r, "passed %s, below its measured rate %.2f over %d runs (P = %.4f < %.2f, one-sided binomial)",
			r.PassRate(), x.PassRate, x.Runs, p, FlakyAlpha)
		return
	}
	if r.Repeat.Passes == r.Repeat.Runs {
		rep.NewlyPassing = append(rep.NewlyPassing, r)
		return
	}
	rep.FlakyWithin = append(rep.FlakyWithin, r)
}
