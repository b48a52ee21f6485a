package benchsuite

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/csvfile"
	"github.com/wirelab/wirelab/internal/matrix"
)

// Row is one line of bench.csv: one server (slot), client, protocol, profile and size over its
// repetitions.
type Row struct {
	// Server: the matrix's slot ("nginx@bbr", "quic-go@gso-off" in a sweep); CC, GSO "": default.
	Server, CC, GSO, HyStart, Client, Protocol, Profile, Size string
	Bytes                                                     int64
	Reps                                                      int // verified downloads
	Time                                                      Spread
	TTFBMedian                                                float64
	// QueueDrops and LossDrops are the medians over the cell's repetitions of the packets the sim
	// dropped towards the client (every size of a repetition shares one topology).
	QueueDrops, LossDrops float64
	// CPUmsPerMB is the server's CPU time per MB served, median over the repetitions (all sizes
	// of a repetition, handshakes included).
	CPUmsPerMB float64
	// ClientCPUmsPerMB is the client's CPU time per MB of this size's downloads, median over the
	// repetitions, where the client measures it (a browser); NaN otherwise.
	ClientCPUmsPerMB float64
	Seeds            []uint64
	Note             string // why downloads are missing
}

// Rows builds bench.csv's rows from the run's results, in the plan's order (server, protocol,
// client, profile, size), reading each cell's bench.json. Unsupported cells have none; a cell whose
// downloads failed keeps its rows with the repetitions that passed and the reason.
func Rows(p *Plan, results []matrix.Result) []Row {
	by := map[string]matrix.Result{}
	for _, r := range results {
		by[r.Key()] = r
	}
	var out []Row
	for _, c := range p.PlanCells(nil) {
		res, ok := by[c.Key()]
		if !ok || res.Result == matrix.Unsupported {
			continue
		}
		s, cl, pr, prof, v := p.lookup(c.Cell)
		rec, err := ReadRecord(filepath.Join(res.Dir, RecordFile))
		note := res.Reason
		if err != nil {
			note = err.Error()
		}
		var queue, loss, cpu []float64
		var repBytes int64
		for _, size := range p.SizesOn(prof) {
			repBytes += size.Bytes
		}
		for _, r := range rec.Reps {
			if r.Error == "" {
				queue, loss = append(queue, float64(r.SimDrops.Queue)), append(loss, float64(r.SimDrops.Loss))
				if r.ServerCPUms > 0 {
					cpu = append(cpu, r.ServerCPUms/(float64(repBytes)/1e6))
				}
			}
		}
		for _, size := range p.SizesOn(prof) {
			ss, seeds := rec.Samples(size.Name)
			var total, ttfb, clientCPU []float64
			for _, s := range ss {
				total, ttfb = append(total, s.TotalMs), append(ttfb, s.TTFBms)
				if s.ClientCPUms > 0 {
					clientCPU = append(clientCPU, s.ClientCPUms/(float64(size.Bytes)/1e6))
				}
			}
			out = append(out, Row{Server: Slot(s.Name, v), CC: v.CC, GSO: v.GSO, HyStart: v.HyStart, Client: cl.Name, Protocol: pr.Name, Profile: prof.Name, Size: size.Name, Bytes: size.Bytes,
				Reps: len(ss), Time: SpreadOf(total), TTFBMedian: Median(ttfb), QueueDrops: Median(queue), LossDrops: Median(loss),
				CPUmsPerMB: Median(cpu), ClientCPUmsPerMB: Median(clientCPU), Seeds: seeds, Note: note})
		}
	}
	return out
}

// CSVHeader is bench.csv's header.
var CSVHeader = []string{"server", "congestion_control", "gso", "hystart", "client", "protocol", "profile", "size", "bytes", "reps", "median_ms", "p25_ms", "p75_ms",
	"min_ms", "max_ms", "ttfb_median_ms", "sim_queue_drops_median", "sim_loss_drops_median", "server_cpu_ms_per_mb", "client_cpu_ms_per_mb", "seeds", "note"}

// WriteCSV writes bench.csv (times in ms; empty where no download passed; seeds space-separated).
func WriteCSV(path string, rows []Row) error {
	num := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	recs := make([][]string, 0, len(rows))
	for _, r := range rows {
		seeds := make([]string, len(r.Seeds))
		for i, s := range r.Seeds {
			seeds[i] = strconv.FormatUint(s, 10)
		}
		recs = append(recs, []string{r.Server, r.CC, r.GSO, r.HyStart, r.Client, r.Protocol, r.Profile, r.Size, strconv.FormatInt(r.Bytes, 10), strconv.Itoa(r.Reps),
			num(r.Time.Median), num(r.Time.P25), num(r.Time.P75), num(r.Time.Min), num(r.Time.Max), num(r.TTFBMedian),
			num(r.QueueDrops), num(r.LossDrops), num(r.CPUmsPerMB), num(r.ClientCPUmsPerMB), strings.Join(seeds, " "), r.Note})
	}
	return csvfile.Write(path, CSVHeader, recs)
}

// ReadCSV reads bench.csv as WriteCSV wrote it (the report, the integration test). A header or
// number that is not bench.csv's is an error naming the file, the line and the column.
func ReadCSV(path string) ([]Row, error) {
	recs, err := csvfile.Read(path, CSVHeader)
	if err != nil {
		return nil, err
	}
	var out []Row
	for i, rec := range recs {
		bad := func(col int) error {
			return fmt.Errorf("%s:%d: %s %q: not a number", path, i+2, CSVHeader[col], rec[col])
		}
		row := Row{Server: rec[0], CC: rec[1], GSO: rec[2], HyStart: rec[3], Client: rec[4], Protocol: rec[5], Profile: rec[6], Size: rec[7], Note: rec[21]}
		if row.Bytes, err = strconv.ParseInt(rec[8], 10, 64); err != nil {
			return nil, bad(8)
		}
		if row.Reps, err = strconv.Atoi(rec[9]); err != nil {
			return nil, bad(9)
		}
		var nums [10]float64
		for k := range nums {
			nums[k] = math.NaN()
			if rec[10+k] == "" {
				continue
			}
			if nums[k], err = strconv.ParseFloat(rec[10+k], 64); err != nil {
				return nil, bad(10 + k)
			}
		}
		row.Time = Spread{Median: nums[0], P25: nums[1], P75: nums[2], Min: nums[3], Max: nums[4]}
		row.TTFBMedian, row.QueueDrops, row.LossDrops, row.CPUmsPerMB = nums[5], nums[6], nums[7], nums[8]
		row.ClientCPUmsPerMB = nums[9]
		for _, s := range strings.Fields(rec[20]) {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return nil, bad(20)
			}
			row.Seeds = append(row.Seeds, v)
		}
		out = append(out, row)
	}
	return out, nil
}

// Series is the row's line in the tables and charts: its protocol, with the client's name when
// it is not the reference client ("h3", "h3 ngtcp2").
func (r Row) Series() string {
	if r.Client == ReferenceClient || r.Client == "" {
		return r.Protocol
	}
	return r.Protocol + " " + r.Client
}
