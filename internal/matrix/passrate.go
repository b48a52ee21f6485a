package matrix

import "math"

// FlakyAlpha is the level of the test that judges a flaky cell's repetitions against its
// measured pass rate: the run's rate is a regression when, were the measured rate still true,
// seeing as few passes as this run did would have a chance below 1% (one-sided binomial test).
// 1% keeps a matrix of a few hundred flaky cells from crying wolf more than once in a while.
const FlakyAlpha = 0.01

// BelowRate reports whether k passes of n runs are significantly fewer than rate predicts:
// P(X <= k) < FlakyAlpha for X ~ Binomial(n, rate). It also returns that probability.
func BelowRate(k, n int, rate float64) (bool, float64) {
	if n <= 0 {
		return false, 1
	}
	p := binomialCDF(k, n, rate)
	return p < FlakyAlpha, p
}

// binomialCDF is P(X <= k) for X ~ Binomial(n, p), summed in log space (n up to MaxRepeat).
func binomialCDF(k, n int, p float64) float64 {
	switch {
	case k >= n:
		return 1
	case k < 0:
		return 0
	case p <= 0:
		return 1
	case p >= 1:
		return 0
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	sum := 0.0
	for i := 0; i <= k; i++ {
		lc, _ := math.Lgamma(float64(n + 1))
		a, _ := math.Lgamma(float64(i + 1))
		b, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lc - a - b + float64(i)*lp + float64(n-i)*lq)
	}
	return math.Min(sum, 1)
}
