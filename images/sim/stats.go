package main

import (
	"time"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/netem"
)

// statsFile is stats.json: the engine's counters per direction plus what the I/O layer adds.
type statsFile struct {
	netem.Stats
	Seconds          float64 `json:"seconds"`
	RateToServerMbps float64 `json:"achieved_mbit_per_s_to_server"`
	RateToClientMbps float64 `json:"achieved_mbit_per_s_to_client"`
	IO               ioStats `json:"io"`
	Written          string  `json:"written"`
}

func writeStats(path string, f *forwarder) error {
	st, io, elapsed := f.stats()
	s := statsFile{Stats: st, Seconds: elapsed.Seconds(), IO: io, Written: time.Now().UTC().Format(time.RFC3339Nano)}
	if secs := elapsed.Seconds(); secs > 0 {
		s.RateToServerMbps = float64(st.ToServer.BytesOut) * 8 / secs / 1e6
		s.RateToClientMbps = float64(st.ToClient.BytesOut) * 8 / secs / 1e6
	}
	return jsonfile.Write(path, s)
}
