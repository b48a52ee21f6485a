package benchsuite

import (
	"math"
	"testing"
)

func TestMedianAndSpread(t *testing.T) {
	if m := Median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("median of 5,1,3: %v", m)
	}
	if m := Median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median of 4 values: %v", m)
	}
	s := SpreadOf([]float64{10, 20, 30, 40, 50})
	if s != (Spread{Median: 30, P25: 20, P75: 40, Min: 10, Max: 50}) {
		t.Errorf("spread %+v", s)
	}
	if s := SpreadOf([]float64{7}); s.Median != 7 || s.P25 != 7 || s.Max != 7 {
		t.Errorf("one value: %+v", s)
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("median of nothing is not NaN")
	}
}
