package benchsuite

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strconv"
)

// A browser's download (images/browser/driver, suite bench) is timed from the browser's own
// NetLog (Chromium, --net-log-capture-mode=IncludeSensitive), one file per download: the
// URL request's events give when the page's fetch started (REQUEST_ALIVE's begin: connection
// and handshake come after it, as in curl's time_total), when the response headers were read
// (HTTP_TRANSACTION_READ_RESPONSE_HEADERS: the time to first byte) and when the last body bytes
// were handed over (the last URL_REQUEST_JOB_FILTERED_BYTES_READ: the total time). The bytes of
// those events must add up to the body the page read, and the request's send event says which
// HTTP version carried it. NetLog times are whole milliseconds.

// netLog is the part of a NetLog file the times need.
type netLog struct {
	Constants struct {
		EventTypes  map[string]int `json:"logEventTypes"`
		EventPhases map[string]int `json:"logEventPhase"`
	} `json:"constants"`
	Events []netLogEvent `json:"events"`
}

type netLogEvent struct {
	Time   json.Number `json:"time"` // ms, a string in Chromium's files
	Type   int         `json:"type"`
	Phase  int         `json:"phase"`
	Source struct {
		ID int `json:"id"`
	} `json:"source"`
	Params struct {
		URL       string `json:"url"`
		ByteCount int64  `json:"byte_count"`
	} `json:"params"`
}

// browserTimes is what a browser's own log of one download says of it (NetLogTimes, MozLogTimes).
type browserTimes struct {
	TTFB, Total float64 // seconds from the fetch's start
	HTTPVersion string  // "1.1", "2", "3"
	Bytes       int64   // body bytes handed to the page
}

// sendEvents name the HTTP version by the event that sent the request's headers.
var sendEvents = map[string]string{
	"HTTP_TRANSACTION_SEND_REQUEST_HEADERS":       "1.1",
	"HTTP_TRANSACTION_HTTP2_SEND_REQUEST_HEADERS": "2",
	"HTTP_TRANSACTION_QUIC_SEND_REQUEST_HEADERS":  "3",
}

// NetLogTimes reads the download of rawURL from a NetLog file. An unterminated file (a browser
// that was killed) or one without the request, its headers or its bytes is an error naming the
// file.
func NetLogTimes(path, rawURL string) (browserTimes, error) {
	var d browserTimes
	want, err := url.Parse(rawURL)
	if err != nil {
		return d, fmt.Errorf("%s: %v", path, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return d, err
	}
	var nl netLog
	if err := json.Unmarshal(data, &nl); err != nil {
		return d, fmt.Errorf("%s: not a whole NetLog (was the browser stopped before it finished the file?): %v", path, err)
	}
	name := map[int]string{}
	for k, v := range nl.Constants.EventTypes {
		name[v] = k
	}
	begin, ok := nl.Constants.EventPhases["PHASE_BEGIN"]
	if !ok || len(name) == 0 {
		return d, fmt.Errorf("%s: no event constants", path)
	}
	// the request: the first job started for the URL's host and path
	source := -1
	for _, e := range nl.Events {
		if name[e.Type] == "URL_REQUEST_START_JOB" && e.Phase == begin {
			if u, err := url.Parse(e.Params.URL); err == nil && u.Hostname() == want.Hostname() && u.Path == want.Path {
				source = e.Source.ID
				break
			}
		}
	}
	if source < 0 {
		return d, fmt.Errorf("%s: no request for %s", path, rawURL)
	}
	var start, headers, last float64
	var haveStart, haveHeaders bool
	for _, e := range nl.Events {
		if e.Source.ID != source {
			continue
		}
		t, err := strconv.ParseFloat(e.Time.String(), 64)
		if err != nil {
			return d, fmt.Errorf("%s: event time %q", path, e.Time)
		}
		switch n := name[e.Type]; {
		case n == "REQUEST_ALIVE" && e.Phase == begin:
			start, haveStart = t, true
		case n == "HTTP_TRANSACTION_READ_RESPONSE_HEADERS" && !haveHeaders:
			headers, haveHeaders = t, true
		case n == "URL_REQUEST_JOB_FILTERED_BYTES_READ":
			d.Bytes += e.Params.ByteCount
			last = t
		case sendEvents[n] != "" && d.HTTPVersion == "":
			d.HTTPVersion = sendEvents[n]
		}
	}
	switch {
	case !haveStart:
		return d, fmt.Errorf("%s: the request for %s has no start", path, rawURL)
	case !haveHeaders:
		return d, fmt.Errorf("%s: the request for %s read no response headers", path, rawURL)
	case d.Bytes == 0:
		return d, fmt.Errorf("%s: the request for %s read no body bytes (NetLog capture mode without byte counts?)", path, rawURL)
	case d.HTTPVersion == "":
		return d, fmt.Errorf("%s: the request for %s sent no headers the NetLog names", path, rawURL)
	}
	// a download of under a millisecond still took time: count it as half of one
	d.TTFB, d.Total = max(headers-start, 0.5)/1000, max(last-start, 0.5)/1000
	return d, nil
}
