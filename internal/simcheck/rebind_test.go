package simcheck

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/netem"
	"github.com/wirelab/wirelab/internal/simstats"
)

// The rebind verdict comes from the sim's final stats.json: the count its schedule gives for its
// engine's clock passes, a wrong count or too few rebindings fail, and a live (unsealed) file
// is refused before any verdict.
func TestRebindFromFinalStats(t *testing.T) {
	every3 := netem.Rebind{First: 3 * time.Second, Freq: 3 * time.Second, Port: true}
	for _, c := range []struct {
		fixture  string
		pass     bool
		notFinal bool
	}{
		{"rebind-final.json", true, false},        // 4 rebindings due by 13.2 s, 4 made
		{"rebind-wrong-count.json", false, false}, // 5 made, 4 due
		{"rebind-too-short.json", false, false},   // 2 due by 8.1 s: the probes crossed fewer than 3
		{"rebind-live.json", false, true},         // the sim was still running
	} {
		st, err := simstats.ReadFile(filepath.Join("testdata", c.fixture))
		if errors.Is(err, simstats.ErrNotFinal) != c.notFinal {
			t.Fatalf("%s: read error %v", c.fixture, err)
		}
		if err != nil {
			continue
		}
		checks := Rebind("rebind", 3, every3, st, 40, 5000, 0.03)
		if checks[0].Pass != c.pass || !checks[1].Pass {
			t.Errorf("%s: %s / %s", c.fixture, checks[0], checks[1])
		}
	}
	// Traffic that died at a rebinding fails however many rebindings there were.
	st, _ := simstats.ReadFile(filepath.Join("testdata", "rebind-final.json"))
	if Rebind("rebind", 3, every3, st, 3000, 5000, 0.03)[1].Pass {
		t.Error("60% loss across rebindings passes")
	}
}
