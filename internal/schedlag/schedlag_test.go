package schedlag

import (
	"math"
	"testing"
	"time"
)

// One 100 ms stall among 900 on-time wake-ups: per wake-up it is one sample in a thousand, but
// it covers 100 of the window's 1000 ms, so 10% of moments wait, 1% of them more than 90 ms.
func TestSummarizeWeighsStallsByLength(t *testing.T) {
	lags := make([]time.Duration, 900)
	lags = append(lags, 100*time.Millisecond)
	s := Summarize(lags)
	near := func(got, want float64) bool { return math.Abs(got-want) < 0.01 }
	if s.Samples != 901 || s.P99Ms != 0 || s.MaxMs != 100 || !near(s.Behind, 0.1) || !near(s.Over1Ms, 0.099) || s.SeenP50Ms != 0 || !near(s.SeenP99Ms, 90) {
		t.Errorf("%+v", s)
	}
	quiet := Summarize(make([]time.Duration, 1000))
	if quiet.Behind != 0 || quiet.SeenP99Ms != 0 || quiet.MaxMs != 0 {
		t.Errorf("quiet: %+v", quiet)
	}
}

// The sampler runs and measures something: at least a few wake-ups, none negative.
func TestSamplerSamples(t *testing.T) {
	s := Start()
	time.Sleep(50 * time.Millisecond) // the window measured
	got := s.Stop()
	if got.Samples < 5 || got.P50Ms < 0 {
		t.Errorf("%+v", got)
	}
}
