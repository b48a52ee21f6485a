package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/wirelab/wirelab/internal/capture"
	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/svgchart"
)

// TimeSeq is a trace's bytes over time, per direction (Wireshark's stream graph for the whole
// transfer): cumulative frame bytes against seconds since the trace's first packet. Read from
// the raw pcap in Go, without tshark and without decryption: a pass over every packet.
type TimeSeq struct {
	Packets  int          `json:"packets"`   // records in the trace, all protocols
	Counted  int          `json:"counted"`   // the suite's packets between client and server
	ToServer [][2]float64 `json:"to_server"` // (seconds, cumulative bytes), reduced
	ToClient [][2]float64 `json:"to_client"`
	Source   string       `json:"source"` // the trace it was read from, its size and time (cache key)
}

// serverPorts are the ports a lab server (or a gRPC-web origin) listens on: a packet from one of
// them to another port goes to the client.
var serverPorts = map[uint16]bool{quictrace.ServerPort: true, quictrace.PreferredAddressPort: true, 80: true}

// maxSeqPoints bounds the points kept per direction: the chart cannot show more, the cache and
// the page stay small.
const maxSeqPoints = 1500

// ReadTimeSeq reads a pcap's packets of the given transport (6 TCP, 17 UDP) and sums each
// direction's frame bytes over time.
func ReadTimeSeq(path string, proto byte) (TimeSeq, error) {
	f, err := os.Open(path)
	if err != nil {
		return TimeSeq{}, err
	}
	defer f.Close()
	pr, err := capture.NewPcapReader(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return TimeSeq{}, fmt.Errorf("%s: %v", path, err)
	}
	var ts TimeSeq
	var start time.Time
	var sums [2]float64
	var all [2][][2]float64
	for {
		rec, err := pr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return TimeSeq{}, fmt.Errorf("%s: %v", path, err)
		}
		ts.Packets++
		if ts.Packets == 1 {
			start = rec.Time
		}
		tr, ok := capture.ParseTransport(pr.IPPacket(rec.Data))
		if !ok || tr.Proto != proto {
			continue
		}
		dir := -1
		switch {
		case serverPorts[tr.SrcPort] && !serverPorts[tr.DstPort]:
			dir = 1
		case serverPorts[tr.DstPort]:
			dir = 0
		}
		if dir < 0 {
			continue
		}
		ts.Counted++
		sums[dir] += float64(rec.OrigLen)
		all[dir] = append(all[dir], [2]float64{rec.Time.Sub(start).Seconds(), sums[dir]})
	}
	ts.ToServer, ts.ToClient = reduce(all[0], maxSeqPoints), reduce(all[1], maxSeqPoints)
	return ts, nil
}

// reduce keeps at most about n points of a cumulative series: the first, then a point whenever
// time or bytes moved on by 1/n of their range since the last one kept, and the last.
func reduce(pts [][2]float64, n int) [][2]float64 {
	if len(pts) <= n {
		return pts
	}
	first, last := pts[0], pts[len(pts)-1]
	dt, db := (last[0]-first[0])/float64(n/2), (last[1]-first[1])/float64(n/2)
	out := [][2]float64{first}
	for _, p := range pts[1 : len(pts)-1] {
		k := out[len(out)-1]
		if p[0]-k[0] >= dt || p[1]-k[1] >= db {
			out = append(out, p)
		}
	}
	return append(out, last)
}

// cachedTimeSeq returns the time-sequence of pcap from the cache folder, reading the trace when
// the cache is missing or was made from another version of the file.
func cachedTimeSeq(cacheDir, pcap string, proto byte) (TimeSeq, error) {
	src, err := sourceKey(pcap)
	if err != nil {
		return TimeSeq{}, err
	}
	if ts, ok := cachedOnly(cacheDir, src); ok {
		return ts, nil
	}
	ts, err := ReadTimeSeq(pcap, proto)
	if err != nil {
		return TimeSeq{}, err
	}
	ts.Source = src
	if err := os.MkdirAll(cacheDir, 0o755); err == nil {
		data, _ := json.Marshal(ts)
		_ = os.WriteFile(filepath.Join(cacheDir, "timeseq.json"), data, 0o644)
	}
	return ts, nil
}

// cachedOnly reads the cached time-sequence made from the trace version src, if there is one.
func cachedOnly(cacheDir, src string) (TimeSeq, bool) {
	var ts TimeSeq
	data, err := os.ReadFile(filepath.Join(cacheDir, "timeseq.json"))
	return ts, err == nil && json.Unmarshal(data, &ts) == nil && ts.Source == src
}

// sourceKey names a file's version: its path, size and modification time.
func sourceKey(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %d %d", path, st.Size(), st.ModTime().UnixNano()), nil
}

// Chart draws the time-sequence: bytes so far against seconds, one series per direction.
func (ts TimeSeq) Chart(title string) string {
	unit, div := "bytes", 1.0
	maxB := 0.0
	for _, s := range [][][2]float64{ts.ToServer, ts.ToClient} {
		if len(s) > 0 {
			maxB = max(maxB, s[len(s)-1][1])
		}
	}
	switch {
	case maxB >= 2e6:
		unit, div = "MB", 1e6
	case maxB >= 2e3:
		unit, div = "kB", 1e3
	}
	series := func(name, class string, pts [][2]float64) svgchart.Series {
		s := svgchart.Series{Name: name, Class: class, Points: make([]svgchart.Point, len(pts))}
		for i, p := range pts {
			s.Points[i] = svgchart.Point{X: p[0], Y: p[1] / div}
		}
		return s
	}
	return svgchart.Scatter(svgchart.Chart{Title: title, XLabel: "seconds since the trace's first packet", YLabel: unit + " sent (frames)",
		Width: 760, Height: 340, YZero: true, Series: []svgchart.Series{
			series("client → server", "dir-client", ts.ToServer), series("server → client", "dir-server", ts.ToClient)}})
}
