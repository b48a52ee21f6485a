package benchsuite

import (
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/internal/jsonfile"
)

// RecordFile is a cell's record of its repetitions, in the cell's folder: what bench.csv is
// made from (results.jsonl keeps each cell's verdict and its download times).
const RecordFile = "bench.json"

// CellRecord is one cell's repetitions.
type CellRecord struct {
	Server   string      `json:"server"`
	CC       string      `json:"congestion_control,omitempty"` // "": the stacks' defaults
	GSO      string      `json:"gso,omitempty"`                // the QUIC stack's UDP GSO, on / off; "": the image's default
	HyStart  string      `json:"hystart,omitempty"`            // the QUIC CUBIC's HyStart++, on / off; "": the stack's default
	Client   string      `json:"client"`
	Protocol string      `json:"protocol"`
	Profile  string      `json:"profile"`
	Reps     []RepRecord `json:"repetitions"`
}

// RepRecord is one repetition: its seed (the sim's), folder, verified downloads and, when it
// failed, why.
type RepRecord struct {
	Rep         int      `json:"rep"`
	Seed        uint64   `json:"seed"`
	Dir         string   `json:"dir"`
	Samples     []Sample `json:"downloads"`
	SimDrops    SimDrops `json:"sim_drops_to_client"`
	ServerTCPCC string   `json:"server_tcp_congestion_control"` // read from the server's namespace
	// ServerCPUms is the CPU time the server's container spent from the client's start to its
	// exit (its cgroup; every size of the repetition), 0 when unreadable.
	ServerCPUms float64 `json:"server_cpu_ms,omitempty"`
	Error       string  `json:"error,omitempty"`
	Unsupported bool    `json:"unsupported,omitempty"`
}

// Sample is one verified download: time to first byte and total time, in milliseconds.
type Sample struct {
	Size    string  `json:"size"`
	TTFBms  float64 `json:"ttfb_ms"`
	TotalMs float64 `json:"total_ms"`
	// ClientCPUms is the client's CPU time over the download, where the client measures it (a
	// browser: its container's cgroup); 0 otherwise.
	ClientCPUms float64 `json:"client_cpu_ms,omitempty"`
}

// Write writes the record as JSON (atomically: a resumed run never reads half a record).
func (c CellRecord) Write(path string) error { return jsonfile.Write(path, c) }

// ReadRecord reads a cell's bench.json.
func ReadRecord(path string) (CellRecord, error) {
	var c CellRecord
	return c, jsonfile.Read(path, &c)
}

// FirstError is the first failed repetition's reason, "" when every one passed.
func (c CellRecord) FirstError() string {
	for _, r := range c.Reps {
		if r.Error != "" {
			failed := 0
			for _, x := range c.Reps {
				if x.Error != "" {
					failed++
				}
			}
			return fmt.Sprintf("%d of %d repetitions failed; %s", failed, len(c.Reps), r.Error)
		}
	}
	return ""
}

// Samples are the verified downloads of one size, in repetition order, with their seeds.
func (c CellRecord) Samples(size string) (out []Sample, seeds []uint64) {
	for _, r := range c.Reps {
		for _, s := range r.Samples {
			if s.Size == size {
				out, seeds = append(out, s), append(seeds, r.Seed)
			}
		}
	}
	return out, seeds
}

// Values are the cell's download times (ms) for results.jsonl: each size's repetitions in turn,
// sizes in the plan's order.
func (c CellRecord) Values(sizes []Size) []float64 {
	var out []float64
	for _, s := range sizes {
		ss, _ := c.Samples(s.Name)
		for _, x := range ss {
			out = append(out, x.TotalMs)
		}
	}
	return out
}

// Details is the cell's details line: per size the median download time over its repetitions.
func (c CellRecord) Details(sizes []Size) string {
	var parts []string
	for _, s := range sizes {
		ss, _ := c.Samples(s.Name)
		if len(ss) == 0 {
			continue
		}
		var t []float64
		for _, x := range ss {
			t = append(t, x.TotalMs)
		}
		parts = append(parts, fmt.Sprintf("%s %s ms", s.Name, fmtMs(Median(t))))
	}
	return "median download " + strings.Join(parts, ", ") + fmt.Sprintf(" (%d repetitions)", len(c.Reps))
}

func fmtMs(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}
