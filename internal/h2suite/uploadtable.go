package h2suite

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/wirelab/wirelab/internal/csvfile"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/tshark"
)

// FlagRatio is the h2/HTTP/1.1 upload ratio below which a server is flagged at high BDP.
const FlagRatio = 0.8

// UploadRow pairs a server's HTTP/1.1 and h2 uploads on one profile, with the server's windows
// as its h2 trace shows them: the row explains its ratio.
type UploadRow struct {
	Server, Profile, BDP string
	H1, H2, Ratio        float64 // median Mbit/s; h2/h1 (0 when either is missing)
	Flagged              bool
	Windows              *ServerWindows
	Note                 string // why a value is missing
}

// UploadRows builds the rows from the run's upload results, reading each h2 cell's decrypted
// trace (its first repetition's, under --repeat) and, for the opening connection window,
// h2upload's own record.
func UploadRows(ctx context.Context, t *tshark.Tool, sections []*Section, results []matrix.Result) []UploadRow {
	type key struct{ server, profile string }
	rows := map[key]*UploadRow{}
	secs := map[string]*Section{}
	for _, s := range sections {
		secs[s.Name] = s
	}
	for _, r := range results {
		s := secs[r.Case]
		if s == nil || s.UploadProto() == "" || r.Result == matrix.Unsupported {
			continue
		}
		k := key{r.Server, s.Profile}
		row := rows[k]
		if row == nil {
			row = &UploadRow{Server: r.Server, Profile: s.Profile, BDP: s.BDP}
			rows[k] = row
		}
		m := Median(r.Values)
		if r.Result != matrix.Succeeded {
			row.Note += fmt.Sprintf("%s failed: %s; ", s.Name, r.Reason)
		}
		if s.UploadProto() == "h1" {
			row.H1 = m
			continue
		}
		row.H2 = m
		pcap := filepath.Join(r.Dir, "sim", "trace_node_right.pcapng")
		if r.Repeat != nil && len(r.Repeat.Of) > 0 {
			pcap = filepath.Join(r.Repeat.Of[0].Dir, "sim", "trace_node_right.pcapng")
		}
		if w, err := ReadServerWindows(ctx, t, pcap); err == nil {
			if grant, ok := openingGrant(filepath.Join(filepath.Dir(filepath.Dir(pcap)), "client", "upload.json")); ok {
				w.ConnWindow = defaultWindow + grant
			}
			row.Windows = &w
		} else {
			row.Note += "windows: " + err.Error() + "; "
		}
	}
	var out []UploadRow
	for _, row := range rows {
		if row.H1 > 0 && row.H2 > 0 {
			row.Ratio = row.H2 / row.H1
			row.Flagged = row.BDP == "high" && row.Ratio < FlagRatio
		}
		out = append(out, *row)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Server != out[b].Server {
			return out[a].Server < out[b].Server
		}
		return out[a].Profile < out[b].Profile
	})
	return out
}

var uploadHeader = []string{"server", "profile", "bdp", "h1_mbps", "h2_mbps", "h2_over_h1", "flagged",
	"initial_window_size", "connection_window", "stream_updates_per_conn", "median_stream_increment", "median_update_interval_ms", "note"}

// WriteUploadCSV writes upload.csv: one row per server and profile.
func WriteUploadCSV(path string, rows []UploadRow) error {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	recs := make([][]string, 0, len(rows))
	for _, r := range rows {
		rec := []string{r.Server, r.Profile, r.BDP, num(r.H1), num(r.H2), num(r.Ratio), strconv.FormatBool(r.Flagged), "", "", "", "", "", r.Note}
		if w := r.Windows; w != nil {
			rec[7], rec[8], rec[9], rec[10], rec[11] = strconv.FormatInt(w.InitialWindow, 10), strconv.FormatInt(w.ConnWindow, 10),
				num(w.StreamUpdates), num(w.MedianStreamIncr), num(w.MedianUpdateGapMs)
		}
		recs = append(recs, rec)
	}
	return csvfile.Write(path, uploadHeader, recs)
}

// ReadUploadCSV reads upload.csv as WriteUploadCSV wrote it (the report shows a run's table
// without reading its traces again). A file whose header or numbers are not upload.csv's is an
// error naming the file and the line.
func ReadUploadCSV(path string) ([]UploadRow, error) {
	recs, err := csvfile.Read(path, uploadHeader)
	if err != nil {
		return nil, err
	}
	var out []UploadRow
	for i, rec := range recs {
		var nums [8]float64
		for k, col := range []int{3, 4, 5, 7, 8, 9, 10, 11} {
			if rec[col] == "" && col >= 7 {
				continue
			}
			if nums[k], err = strconv.ParseFloat(rec[col], 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %s %q: not a number", path, i+2, uploadHeader[col], rec[col])
			}
		}
		row := UploadRow{Server: rec[0], Profile: rec[1], BDP: rec[2], H1: nums[0], H2: nums[1], Ratio: nums[2],
			Flagged: rec[6] == "true", Note: rec[12]}
		if rec[7] != "" {
			row.Windows = &ServerWindows{InitialWindow: int64(nums[3]), ConnWindow: int64(nums[4]), StreamUpdates: nums[5],
				MedianStreamIncr: nums[6], MedianUpdateGapMs: nums[7]}
		}
		out = append(out, row)
	}
	return out, nil
}

// PrintUploadTable prints the rows as the terminal's upload summary.
func PrintUploadTable(w io.Writer, rows []UploadRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nupload (median Mbit/s of each protocol; h2/h1.1 below %.1f at high BDP is flagged; windows from the server's h2 frames in the trace)\n", FlagRatio)
	fmt.Fprintf(w, "%-11s %-12s %8s %8s %6s  %-10s %-12s %-9s %s\n", "server", "profile", "h1.1", "h2", "h2/h1", "init win", "conn win", "upd/conn", "incr")
	for _, r := range rows {
		flag, win := "", ""
		if r.Flagged {
			flag = " FLAGGED"
		}
		if x := r.Windows; x != nil {
			win = fmt.Sprintf("%-10d %-12d %-9.0f %.0f", x.InitialWindow, x.ConnWindow, x.StreamUpdates, x.MedianStreamIncr)
		}
		fmt.Fprintf(w, "%-11s %-12s %8.1f %8.1f %6.2f  %s%s\n", r.Server, r.Profile, r.H1, r.H2, r.Ratio, win, flag)
	}
}

// openingGrant is the connection window the server opened before the upload's first DATA, as
// h2upload recorded it (the median over its repetitions). The trace cannot always say: when
// the client's TLS records span many segments under a slow link, tshark may not show the
// client's first DATA before the server's first credit.
func openingGrant(uploadJSON string) (int64, bool) {
	data, err := os.ReadFile(uploadJSON)
	if err != nil {
		return 0, false
	}
	var u struct {
		Reps []struct {
			H2 *struct {
				Grant int64 `json:"initial_connection_window_update"`
			} `json:"h2"`
		} `json:"reps"`
	}
	if json.Unmarshal(data, &u) != nil {
		return 0, false
	}
	var grants []float64
	for _, r := range u.Reps {
		if r.H2 != nil {
			grants = append(grants, float64(r.H2.Grant))
		}
	}
	if len(grants) == 0 {
		return 0, false
	}
	return int64(Median(grants)), true
}
