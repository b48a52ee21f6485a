package benchsuite

import (
	"math"

	"github.com/wirelab/wirelab/internal/suite"
)

// Summary is a bench run's result.json: what it measured and its rows (bench.csv's numbers).
type Summary struct {
	suite.RunTimes
	Seed        uint64    `json:"seed"`
	Servers     []string  `json:"servers"`
	Clients     []string  `json:"clients"`
	Protocols   []string  `json:"protocols"`
	Profiles    []string  `json:"profiles"`
	Sizes       []string  `json:"sizes"`
	Repetitions int       `json:"repetitions"`
	Charts      []string  `json:"charts"`
	Rows        []JSONRow `json:"rows"`
}

// JSONRow is a Row in result.json: times in ms, null where no download passed (JSON has no NaN).
type JSONRow struct {
	Server     string   `json:"server"`
	CC         string   `json:"congestion_control,omitempty"`
	GSO        string   `json:"gso,omitempty"`
	HyStart    string   `json:"hystart,omitempty"`
	Client     string   `json:"client"`
	Protocol   string   `json:"protocol"`
	Profile    string   `json:"profile"`
	Size       string   `json:"size"`
	Bytes      int64    `json:"bytes"`
	Reps       int      `json:"reps"`
	MedianMs   *float64 `json:"median_ms"`
	P25Ms      *float64 `json:"p25_ms"`
	P75Ms      *float64 `json:"p75_ms"`
	MinMs      *float64 `json:"min_ms"`
	MaxMs      *float64 `json:"max_ms"`
	TTFBMedian *float64 `json:"ttfb_median_ms"`
	QueueDrops *float64 `json:"sim_queue_drops_median"`
	LossDrops  *float64 `json:"sim_loss_drops_median"`
	CPUmsPerMB *float64 `json:"server_cpu_ms_per_mb"`
	Seeds      []uint64 `json:"seeds"`
	Note       string   `json:"note,omitempty"`
}

func jsonNum(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// Summarize builds result.json from the plan, the rows and the charts.
func Summarize(p *Plan, seed uint64, rows []Row, charts []Chart) Summary {
	s := Summary{Seed: seed, Servers: p.ServerNames(), Repetitions: p.Repetitions, Rows: []JSONRow{}}
	for _, r := range rows {
		s.Rows = append(s.Rows, JSONRow{Server: r.Server, CC: r.CC, GSO: r.GSO, HyStart: r.HyStart, Client: r.Client, Protocol: r.Protocol, Profile: r.Profile, Size: r.Size, Bytes: r.Bytes, Reps: r.Reps,
			MedianMs: jsonNum(r.Time.Median), P25Ms: jsonNum(r.Time.P25), P75Ms: jsonNum(r.Time.P75), MinMs: jsonNum(r.Time.Min),
			MaxMs: jsonNum(r.Time.Max), TTFBMedian: jsonNum(r.TTFBMedian),
			QueueDrops: jsonNum(r.QueueDrops), LossDrops: jsonNum(r.LossDrops), CPUmsPerMB: jsonNum(r.CPUmsPerMB), Seeds: r.Seeds, Note: r.Note})
	}
	for _, x := range p.Clients {
		s.Clients = append(s.Clients, x.Name)
	}
	for _, x := range p.Protocols {
		s.Protocols = append(s.Protocols, x.Name)
	}
	for _, x := range p.Profiles {
		s.Profiles = append(s.Profiles, x.Name)
	}
	for _, x := range p.Sizes {
		s.Sizes = append(s.Sizes, x.Name)
	}
	for _, c := range charts {
		s.Charts = append(s.Charts, c.File)
	}
	return s
}
