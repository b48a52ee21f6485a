package netem

import "testing"

// LossMaxRun: random loss never drops more than N in a row (upstream drop-rate's --burst), and
// without the cap long runs do occur at the same loss rate.
func TestLossMaxRunCapsRuns(t *testing.T) {
	longest := func(maxRun int) (int, float64) {
		l, err := NewLink(ToServer, 7, Params{Loss: 0.5, LossMaxRun: maxRun})
		if err != nil {
			t.Fatal(err)
		}
		run, best, lost := 0, 0, 0
		for i := 0; i < 20000; i++ {
			if l.Process(0, PacketInfo{Size: 100}).Drop {
				run++
				lost++
				best = max(best, run)
			} else {
				run = 0
			}
		}
		return best, float64(lost) / 20000
	}
	if best, rate := longest(3); best != 3 || rate < 0.4 || rate > 0.5 {
		t.Fatalf("cap 3: longest run %d, loss %.3f", best, rate)
	}
	if best, _ := longest(0); best <= 3 {
		t.Fatalf("uncapped 50%% loss over 20k packets should show runs > 3, longest %d", best)
	}
	if _, err := NewLink(ToServer, 1, Params{LossMaxRun: -1}); err == nil {
		t.Fatal("negative cap accepted")
	}
}
