package main

import (
	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/simstats"
)

// writeStats writes stats.json (internal/simstats) atomically: a reader never sees half of it.
func writeStats(path string, s simstats.Stats) error {
	return jsonfile.Write(path, s)
}
