package benchsuite

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A QUIC stack's own client (quic-go, ngtcp2, aioquic) reports no timings of its own, so a
// download's times come from the qlog of its connection: time to first byte is when the first
// packet carrying response bytes (a STREAM frame of request stream 0: the HEADERS frame) arrived,
// total time when the last byte up to the stream's FIN had arrived, both from the trace's first
// event (the client creating the connection, before its first Initial). curl's numbers start a
// little earlier (name lookup, socket), which on these networks is well under a millisecond.
// quic-go and ngtcp2 write qlog as JSON-SEQ (one event per record, times relative to the trace's
// reference time), aioquic as one JSON document (traces[0].events); both carry the frames of
// transport:packet_received (quic:packet_received in newer drafts) with stream_id, offset,
// length and fin.

// qlogEvent is the part of a qlog event the times need.
type qlogEvent struct {
	Time float64 `json:"time"` // ms
	Name string  `json:"name"`
	Data struct {
		Frames []struct {
			Type     string `json:"frame_type"`
			StreamID *int64 `json:"stream_id"`
			Offset   int64  `json:"offset"`
			Length   int64  `json:"length"`
			Fin      bool   `json:"fin"`
		} `json:"frames"`
	} `json:"data"`
}

// QlogTimes reads the single connection's qlog in dir and returns the response's time to first
// byte and total time in seconds. An error names the file and what is missing: no qlog, more
// than one connection, no response bytes, a stream that never completed.
func QlogTimes(dir string) (ttfb, total float64, err error) {
	var files []string
	for _, pat := range []string{"*.qlog", "*.sqlog"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	if len(files) != 1 {
		return 0, 0, fmt.Errorf("%s: %d qlog files, want the one of the download's connection", dir, len(files))
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return 0, 0, err
	}
	events, err := qlogEvents(data)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %v", files[0], err)
	}
	ttfb, total, err = responseTimes(events)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %v", files[0], err)
	}
	return ttfb / 1000, total / 1000, nil
}

// qlogEvents decodes a JSON-SEQ qlog (records led by 0x1E, the first one the header) or a
// single-document one ({"traces": [{"events": [...]}]}).
func qlogEvents(data []byte) ([]qlogEvent, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == 0x1e {
		var out []qlogEvent
		for i, rec := range bytes.Split(trimmed, []byte{0x1e}) {
			rec = bytes.TrimSpace(rec)
			if len(rec) == 0 {
				continue
			}
			var e qlogEvent
			if err := json.Unmarshal(rec, &e); err != nil {
				return nil, fmt.Errorf("record %d: not a qlog event: %v", i, err)
			}
			if e.Name != "" { // the header record has none
				out = append(out, e)
			}
		}
		return out, nil
	}
	var doc struct {
		Traces []struct {
			Events []qlogEvent `json:"events"`
		} `json:"traces"`
	}
	if err := json.Unmarshal(trimmed, &doc); err != nil {
		return nil, fmt.Errorf("neither JSON-SEQ nor a qlog document: %v", err)
	}
	if len(doc.Traces) != 1 {
		return nil, fmt.Errorf("%d traces, want the one of the download's connection", len(doc.Traces))
	}
	return doc.Traces[0].Events, nil
}

// responseTimes: from the first event, the arrival of stream 0's first bytes and of the last
// byte before its FIN (ms). Retransmitted or reordered frames count where they fill a gap.
func responseTimes(events []qlogEvent) (first, complete float64, err error) {
	if len(events) == 0 {
		return 0, 0, fmt.Errorf("no events")
	}
	start := math.Inf(1)
	for _, e := range events {
		start = math.Min(start, e.Time)
	}
	var got ranges
	fin, seen := int64(-1), false
	for _, e := range events {
		if !strings.HasSuffix(e.Name, ":packet_received") {
			continue
		}
		for _, f := range e.Data.Frames {
			if f.Type != "stream" || f.StreamID == nil || *f.StreamID != 0 {
				continue
			}
			if !seen {
				first, seen = e.Time-start, true
			}
			got.add(f.Offset, f.Offset+f.Length)
			if f.Fin {
				fin = f.Offset + f.Length
			}
			if fin >= 0 && got.covers(fin) {
				return first, e.Time - start, nil
			}
		}
	}
	switch {
	case !seen:
		return 0, 0, fmt.Errorf("no response bytes received (no STREAM frame of stream 0 in packet_received)")
	case fin < 0:
		return 0, 0, fmt.Errorf("stream 0 never ended (no FIN received)")
	}
	return 0, 0, fmt.Errorf("stream 0 incomplete: %d of %d bytes received before its FIN", got.prefix(), fin)
}

// ranges are the received byte ranges of a stream, [from, to), sorted and merged.
type ranges [][2]int64

func (r *ranges) add(from, to int64) {
	if to <= from {
		return
	}
	*r = append(*r, [2]int64{from, to})
	slices.SortFunc(*r, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	merged := (*r)[:1]
	for _, x := range (*r)[1:] {
		last := &merged[len(merged)-1]
		if x[0] <= last[1] {
			last[1] = max(last[1], x[1])
		} else {
			merged = append(merged, x)
		}
	}
	*r = merged
}

// prefix is how many bytes from offset 0 arrived without a gap.
func (r ranges) prefix() int64 {
	if len(r) == 0 || r[0][0] != 0 {
		return 0
	}
	return r[0][1]
}

// covers reports whether every byte before end arrived (an empty stream: end 0).
func (r ranges) covers(end int64) bool { return end == 0 || r.prefix() >= end }
