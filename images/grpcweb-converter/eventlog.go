package main

import (
	"encoding/json"
	"io"
	"os"
	"sync"
	"time"
)

// event is one line of the --log file: one converted (or refused) request.
type event struct {
	Time       string  `json:"time"`
	Mode       string  `json:"mode"`
	Method     string  `json:"method"` // the gRPC method path
	Status     int     `json:"status"` // gRPC status code sent to the client
	Code       string  `json:"code"`
	Message    string  `json:"message,omitempty"`
	HTTPStatus int     `json:"http_status,omitempty"` // set when the request was refused as not gRPC
	BytesIn    int64   `json:"bytes_in"`              // request message bytes
	BytesOut   int64   `json:"bytes_out"`             // response message bytes
	DurationMS float64 `json:"duration_ms"`
	// ConnDropped: the client's HTTP/1.1 connection was closed after the call (its request body
	// had not ended when the status was sent).
	ConnDropped bool `json:"conn_dropped,omitempty"`
}

// eventLog writes events as JSON lines; a nil *eventLog discards them.
type eventLog struct {
	mu sync.Mutex
	w  io.Writer
}

// openEventLog opens path ("" none, "-" or "stderr" standard error, else a file to append to).
func openEventLog(path string) (*eventLog, io.Closer, error) {
	switch path {
	case "":
		return nil, io.NopCloser(nil), nil
	case "-", "stderr":
		return &eventLog{w: os.Stderr}, io.NopCloser(nil), nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return &eventLog{w: f}, f, nil
}

func (l *eventLog) write(e event, start time.Time) {
	if l == nil {
		return
	}
	e.Time = start.UTC().Format(time.RFC3339Nano)
	e.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	line, _ := json.Marshal(e)
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(append(line, '\n'))
}
