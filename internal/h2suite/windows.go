package h2suite

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/tshark"
)

// ServerWindows is what a server's own HTTP/2 frames in a trace say about its receive windows
// during uploads: the window it announces (SETTINGS_INITIAL_WINDOW_SIZE), the connection window
// its first WINDOW_UPDATE opens, and the cadence of the credit it returns. Read from the
// server-side trace (decrypted), not from the client's account of it.
type ServerWindows struct {
	Connections       int     `json:"connections"`
	InitialWindow     int64   `json:"initial_window_size"`     // 65535 when the server's SETTINGS leave it out
	ConnWindow        int64   `json:"connection_window"`       // 65535 + the first stream-0 WINDOW_UPDATE
	StreamUpdates     float64 `json:"stream_updates_per_conn"` // WINDOW_UPDATEs for the upload stream(s)
	ConnUpdates       float64 `json:"conn_updates_per_conn"`   // WINDOW_UPDATEs on stream 0 after the first
	MedianStreamIncr  float64 `json:"median_stream_increment"`
	MedianUpdateGapMs float64 `json:"median_update_interval_ms"` // between successive stream WINDOW_UPDATEs
}

// WindowFields are the tshark fields ParseServerWindows reads, in order.
var WindowFields = []string{"frame.time_relative", "tcp.stream", "tcp.srcport", "http2.type", "http2.streamid",
	"http2.window_update.window_size_increment", "http2.settings.initial_window_size"}

// WindowFilter selects the server's SETTINGS and WINDOW_UPDATE frames, and the client's DATA
// (only a WINDOW_UPDATE on stream 0 before the first DATA opens the connection window; later
// ones return credit).
const WindowFilter = "(tcp.srcport==443 && (http2.type==4 || http2.type==8)) || (tcp.dstport==443 && http2.type==0)"

const serverPort = "443"

const (
	frameSettings     = "4"
	frameWindowUpdate = "8"
	defaultWindow     = 65535
)

type connWindows struct {
	initial, conn   int64
	stream, connUpd int
	lastStreamAt    float64
	dataSeen        bool // the client has sent DATA: stream-0 WINDOW_UPDATEs are credit from now on
}

// ParseServerWindows reads tshark's WindowFields lines (several frames of one segment joined by
// '|': the types and stream ids align frame by frame, the increments follow the WINDOW_UPDATEs,
// the window sizes the SETTINGS that carry one); lines from the client are its DATA.
func ParseServerWindows(fields string) (ServerWindows, error) {
	conns := map[string]*connWindows{}
	var order []string
	var incrs, gaps []float64
	for n, line := range strings.Split(fields, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < len(WindowFields) {
			return ServerWindows{}, fmt.Errorf("tshark line %d: %d fields, want %d", n+1, len(f), len(WindowFields))
		}
		at, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return ServerWindows{}, fmt.Errorf("tshark line %d: time %q", n+1, f[0])
		}
		c := conns[f[1]]
		if c == nil {
			c = &connWindows{initial: -1, conn: -1}
			conns[f[1]] = c
			order = append(order, f[1])
		}
		if f[2] != serverPort { // the client's DATA
			c.dataSeen = true
			continue
		}
		types, streams, incs := split(f[3]), split(f[4]), split(f[5])
		if len(types) != len(streams) {
			return ServerWindows{}, fmt.Errorf("tshark line %d: %d frame types for %d stream ids", n+1, len(types), len(streams))
		}
		if sizes := split(f[6]); len(sizes) > 0 && c.initial < 0 {
			if c.initial, err = strconv.ParseInt(sizes[0], 10, 64); err != nil {
				return ServerWindows{}, fmt.Errorf("tshark line %d: initial window %q", n+1, sizes[0])
			}
		}
		for i, t := range types {
			if t != frameWindowUpdate {
				continue
			}
			if len(incs) == 0 {
				return ServerWindows{}, fmt.Errorf("tshark line %d: a WINDOW_UPDATE without its increment", n+1)
			}
			inc, err := strconv.ParseInt(incs[0], 10, 64)
			if err != nil {
				return ServerWindows{}, fmt.Errorf("tshark line %d: increment %q", n+1, incs[0])
			}
			incs = incs[1:]
			switch {
			case streams[i] == "0" && c.conn < 0 && !c.dataSeen:
				c.conn = defaultWindow + inc
			case streams[i] == "0":
				c.connUpd++
			default:
				c.stream++
				incrs = append(incrs, float64(inc))
				if c.lastStreamAt > 0 {
					gaps = append(gaps, (at-c.lastStreamAt)*1000)
				}
				c.lastStreamAt = at
			}
		}
	}
	if len(order) == 0 {
		return ServerWindows{}, fmt.Errorf("no SETTINGS or WINDOW_UPDATE from the server in the trace")
	}
	w := ServerWindows{Connections: len(order), MedianStreamIncr: Median(incrs), MedianUpdateGapMs: Median(gaps)}
	var initial, connWin []float64
	for _, k := range order {
		c := conns[k]
		if c.initial < 0 {
			c.initial = defaultWindow
		}
		if c.conn < 0 {
			c.conn = defaultWindow
		}
		initial, connWin = append(initial, float64(c.initial)), append(connWin, float64(c.conn))
		w.StreamUpdates += float64(c.stream) / float64(len(order))
		w.ConnUpdates += float64(c.connUpd) / float64(len(order))
	}
	w.InitialWindow, w.ConnWindow = int64(Median(initial)), int64(Median(connWin))
	return w, nil
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}

// ReadServerWindows runs tshark over a cell's decrypted server-side trace.
func ReadServerWindows(ctx context.Context, t *tshark.Tool, pcapng string) (ServerWindows, error) {
	out, err := t.Fields(ctx, pcapng, WindowFilter, WindowFields...)
	if err != nil {
		return ServerWindows{}, err
	}
	return ParseServerWindows(out)
}
