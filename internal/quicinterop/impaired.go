package quicinterop

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/internal/simstats"
)

// impairments are what a case's impaired field may name: the counter of the sim's final
// stats (both directions) that shows the profile really did it to the cell's packets.
var impairments = map[string]func(simstats.Stats) uint64{
	"loss": func(s simstats.Stats) uint64 {
		return s.ToServer.Dropped.Loss + s.ToServer.Dropped.GELoss + s.ToClient.Dropped.Loss + s.ToClient.Dropped.GELoss
	},
	"corruption":   func(s simstats.Stats) uint64 { return s.ToServer.Corrupted + s.ToClient.Corrupted },
	"reordering":   func(s simstats.Stats) uint64 { return s.ToServer.OutOfOrder + s.ToClient.OutOfOrder },
	"blackhole":    func(s simstats.Stats) uint64 { return s.ToServer.Dropped.Blackhole + s.ToClient.Dropped.Blackhole },
	"rebinding":    func(s simstats.Stats) uint64 { return uint64(max(s.Rebinds, 0)) },
	"ce-marking":   func(s simstats.Stats) uint64 { return s.ToServer.CEMarked + s.ToClient.CEMarked },
	"duplication":  func(s simstats.Stats) uint64 { return s.ToServer.Duplicated + s.ToClient.Duplicated },
	"queue-drops":  func(s simstats.Stats) uint64 { return s.ToServer.Dropped.Queue + s.ToClient.Dropped.Queue },
	"dropped-list": func(s simstats.Stats) uint64 { return s.ToServer.Dropped.Droplist + s.ToClient.Dropped.Droplist },
}

func impairmentNames() string {
	var out []string
	for n := range impairments {
		out = append(out, n)
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// impairmentHappened reads the fenced cell's final sim stats: a case that tests an endpoint under
// an impairment is judged only if the sim really impaired the cell's packets (a profile that did
// not apply, or a run too short to hit its rate, would pass a case that tested nothing).
func impairmentHappened(cellDir, impaired string) error {
	if impaired == "" {
		return nil
	}
	st, err := simstats.Read(cellDir)
	if err != nil {
		return fmt.Errorf("impairment %s: %v", impaired, err)
	}
	if n := impairments[impaired](st); n == 0 {
		return fmt.Errorf("impairment %s: the sim's final stats show none (%d packets to the server, %d to the client): the case tested nothing",
			impaired, st.ToServer.PacketsIn, st.ToClient.PacketsIn)
	}
	return nil
}
