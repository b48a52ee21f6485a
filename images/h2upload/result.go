package main

import (
	"slices"
	"time"
)

// result is what -out holds.
type result struct {
	Proto string      `json:"proto"` // "h2" or "h1"
	Size  int64       `json:"size"`  // body bytes per repetition
	Reps  []repResult `json:"reps"`
	// MedianMbps is the median goodput over the repetitions that succeeded; null when none did.
	MedianMbps *float64 `json:"median_mbps"`
}

// repResult is one repetition.
type repResult struct {
	// Seconds runs from the first body byte sent to the complete response (for a failed
	// repetition: to the failure; 0 when no body byte was sent).
	Seconds   float64   `json:"seconds"`
	Mbps      float64   `json:"mbps"` // size*8/seconds/1e6; 0 unless ok
	OK        bool      `json:"ok"`
	Reason    string    `json:"reason"`     // one line, why it failed; "" when ok
	BytesSent int64     `json:"bytes_sent"` // body bytes handed to the connection
	H2        *h2Record `json:"h2,omitempty"`

	connectFailed bool // no TLS connection was made
}

// finish sets the timing and the verdict: ok when reason is empty.
func (r *repResult) finish(size int64, first, end time.Time, reason string) {
	if !first.IsZero() {
		r.Seconds = end.Sub(first).Seconds()
	}
	r.Reason = reason
	r.OK = reason == ""
	if r.OK && r.Seconds > 0 {
		r.Mbps = float64(size) * 8 / r.Seconds / 1e6
	}
}

// medianMbps is the median goodput of the successful repetitions, nil when there is none.
func medianMbps(reps []repResult) *float64 {
	var ok []float64
	for _, r := range reps {
		if r.OK {
			ok = append(ok, r.Mbps)
		}
	}
	return median(ok)
}

// median of xs (the mean of the middle two for an even count); nil for none.
func median(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + m) / 2
	}
	return &m
}
