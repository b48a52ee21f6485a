package calc

import "testing"

func TestAbs(t *testing.T) {
	if Abs(3) != 3 {
		t.Fatal()
	}
	if (&T{}).Method() != 1 {
		t.Fatal()
	}
}
