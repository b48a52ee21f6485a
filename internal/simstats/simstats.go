// Package simstats is the sim's stats.json: the engine's counters per direction and the I/O
// layer's. The sim rewrites it every second while it runs and once more when it stops, then
// marked final. A verdict reads only the final one (Read): counters the sim was still changing
// would give a verdict that depends on when they were read.
package simstats

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/netem"
)

// File is the name of the stats file in the sim's log folder (<cell>/sim/).
const File = "stats.json"

// Stats is stats.json. The counters a check asks for, per direction (ToServer, ToClient):
// Dropped.Loss (random loss, drop-rate), Dropped.GELoss (bursty loss), Dropped.Queue,
// Dropped.Blackhole, Dropped.Droplist, Dropped.NAT (replies to a rebound port), Corrupted
// (flipped and sent on: dropped by the receiver's checksum, or delivered for its stack to
// reject with corrupt_deliver), Duplicated, Reordered (the reorder impairment), OutOfOrder (any
// packet released before an earlier one, jitter included), CEMarked; and Rebinds.
type Stats struct {
	netem.Stats
	Seconds          float64 `json:"seconds"` // since the first packet the engine decided on (its clock's zero)
	RateToServerMbps float64 `json:"achieved_mbit_per_s_to_server"`
	RateToClientMbps float64 `json:"achieved_mbit_per_s_to_client"`
	IO               IO      `json:"io"`
	Written          string  `json:"written"`
	// Final: written when the sim stopped, after its engine decided its last packet.
	Final bool `json:"final"`
}

// IO counts what the sim's I/O layer saw.
type IO struct {
	WriteErrors uint64   `json:"write_errors"`
	ReadErrors  uint64   `json:"read_errors"`
	Foreign     uint64   `json:"dropped_foreign_destination"`
	Reads       uint64   `json:"reads"`  // read(2)s: fewer than packets in when the kernel hands over GSO batches
	Writes      uint64   `json:"writes"` // write(2)s: fewer than packets out when releases are coalesced
	Lateness    Lateness `json:"release_lateness"`
}

// Lateness is how late packets left versus their release time.
type Lateness struct {
	Packets uint64  `json:"packets"`
	P50Us   float64 `json:"p50_us"`
	P99Us   float64 `json:"p99_us"`
	MaxUs   float64 `json:"max_us"`
}

// ErrNotFinal means stats.json is not the one the sim writes when it stops.
var ErrNotFinal = errors.New(`not final (the sim was still running, did not stop cleanly, or its image predates the "final" mark: rebuild wirelab/sim)`)

// Read returns the final counters of a fenced cell's sim from <cellDir>/sim/stats.json.
func Read(cellDir string) (Stats, error) {
	return ReadFile(filepath.Join(cellDir, "sim", File))
}

// ReadFile returns the final counters in the stats.json at path; a missing, malformed or
// non-final file is an error naming it.
func ReadFile(path string) (Stats, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Stats{}, fmt.Errorf("%s: missing (the sim did not start, ran SIM_ENGINE=kernel, or died): %w", path, ErrNotFinal)
	}
	if err != nil {
		return Stats{}, err
	}
	var st Stats
	if err := json.Unmarshal(data, &st); err != nil {
		return Stats{}, fmt.Errorf("%s: %v", path, err)
	}
	if !st.Final {
		return Stats{}, fmt.Errorf("%s: %w", path, ErrNotFinal)
	}
	return st, nil
}
