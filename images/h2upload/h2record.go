package main

import (
	"time"

	"golang.org/x/net/http2"
)

// h2Record is the server's HTTP/2 flow control as one repetition experienced it.
type h2Record struct {
	// Settings lists every parameter of every SETTINGS frame the server sent (not the ACKs), in
	// the order received.
	Settings []settingRecord `json:"settings"`
	// The values in effect at the end: the RFC 9113 defaults where the server sent none
	// (MaxConcurrentStreams null: unlimited).
	InitialWindowSize    uint32  `json:"initial_window_size"`
	MaxFrameSize         uint32  `json:"max_frame_size"`
	MaxConcurrentStreams *uint32 `json:"max_concurrent_streams"`
	// InitialConnectionWindowUpdate is the connection window the server granted beyond 65535
	// before the first DATA frame (its opening WINDOW_UPDATE on stream 0).
	InitialConnectionWindowUpdate int64 `json:"initial_connection_window_update"`
	// WINDOW_UPDATEs received for the upload's stream (all of them) and for the connection (from
	// the first DATA frame on: the opening one is InitialConnectionWindowUpdate).
	StreamWindowUpdates     windowUpdateStats `json:"stream_window_updates"`
	ConnectionWindowUpdates windowUpdateStats `json:"connection_window_updates"`
	// BlockedMs is the time body data was ready (from the request HEADERS on) but a window was
	// closed (<= 0); the two others say which window was closed (they overlap when both were).
	// A wait before the first DATA frame counts here but not in the repetition's seconds.
	BlockedMs             float64 `json:"blocked_ms"`
	BlockedOnStreamMs     float64 `json:"blocked_on_stream_ms"`
	BlockedOnConnectionMs float64 `json:"blocked_on_connection_ms"`
	// MaxInFlight is the most body bytes sent at once that the server had not yet returned as
	// window credit (counting whichever of the stream or connection credit lagged more).
	MaxInFlight int64 `json:"max_in_flight"`
}

type settingRecord struct {
	ID    uint16 `json:"id"`
	Name  string `json:"name"` // RFC name, e.g. INITIAL_WINDOW_SIZE; UNKNOWN_SETTING_<id> otherwise
	Value uint32 `json:"value"`
}

type windowUpdateStats struct {
	Count            int      `json:"count"`
	MedianIncrement  *float64 `json:"median_increment"`   // bytes; null without updates
	MedianIntervalMs *float64 `json:"median_interval_ms"` // between consecutive updates; null below 2
}

// windowUpdateLog collects one kind of WINDOW_UPDATE (stream or connection) as it arrives.
type windowUpdateLog struct {
	at  []time.Time
	inc []float64
}

func (l *windowUpdateLog) add(now time.Time, increment uint32) {
	l.at = append(l.at, now)
	l.inc = append(l.inc, float64(increment))
}

func (l *windowUpdateLog) stats() windowUpdateStats {
	var gaps []float64
	for i := 1; i < len(l.at); i++ {
		gaps = append(gaps, float64(l.at[i].Sub(l.at[i-1]))/float64(time.Millisecond))
	}
	return windowUpdateStats{Count: len(l.at), MedianIncrement: median(l.inc), MedianIntervalMs: median(gaps)}
}

// h2Recorder gathers an h2Record while the repetition runs (under the upload's lock).
type h2Recorder struct {
	settings             []settingRecord
	maxConcurrentStreams *uint32
	initialConnGrant     int64
	streamUpdates        windowUpdateLog
	connUpdates          windowUpdateLog
	block                blockClock
	maxInFlight          int64
}

func (r *h2Recorder) setting(s http2.Setting) {
	r.settings = append(r.settings, settingRecord{ID: uint16(s.ID), Name: s.ID.String(), Value: s.Val})
	if s.ID == http2.SettingMaxConcurrentStreams {
		v := s.Val
		r.maxConcurrentStreams = &v
	}
}

// record is the finished h2Record; initialWindow and maxFrame are the values in effect.
func (r *h2Recorder) record(initialWindow int64, maxFrame uint32) *h2Record {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return &h2Record{
		Settings:                      append([]settingRecord{}, r.settings...),
		InitialWindowSize:             uint32(initialWindow),
		MaxFrameSize:                  maxFrame,
		MaxConcurrentStreams:          r.maxConcurrentStreams,
		InitialConnectionWindowUpdate: r.initialConnGrant,
		StreamWindowUpdates:           r.streamUpdates.stats(),
		ConnectionWindowUpdates:       r.connUpdates.stats(),
		BlockedMs:                     ms(r.block.total),
		BlockedOnStreamMs:             ms(r.block.onStream),
		BlockedOnConnectionMs:         ms(r.block.onConn),
		MaxInFlight:                   r.maxInFlight,
	}
}
