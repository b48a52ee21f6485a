package calc

// Abs is half covered by the test below: the negative branch never runs.
func Abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Never is not called by the test.
func Never() int {
	return 42
}

type T struct{}

// Method has a body with a closure, attributed to Method.
func (*T) Method() int {
	f := func() int { return 1 }
	return f()
}

// Empty has no statements: neither covered nor uncovered.
func Empty() {}
