package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// logEntry is one line of the --log file: a request the server or origin saw (the trace shows
// bytes; this shows what a converter made of the request), or the client's verdict.
type logEntry struct {
	Time       string              `json:"time"`
	Role       string              `json:"role"`
	Case       string              `json:"case"`
	Method     string              `json:"method,omitempty"`
	Path       string              `json:"path,omitempty"`
	Proto      string              `json:"proto,omitempty"`
	Host       string              `json:"host,omitempty"`
	Headers    map[string][]string `json:"headers,omitempty"`
	Trailers   map[string][]string `json:"trailers,omitempty"`
	BodyBytes  *int64              `json:"body_bytes,omitempty"`
	DurationMS float64             `json:"duration_ms,omitempty"`
	Exit       *int                `json:"exit,omitempty"`   // client: the exit code
	Detail     string              `json:"detail,omitempty"` // client: why it failed
}

// requestLog appends entries as JSON lines; a nil *requestLog discards them.
type requestLog struct {
	role, name string
	mu         sync.Mutex
	w          io.Writer
}

// openLog opens path for appending ("" means no log).
func openLog(path, role, name string) (*requestLog, io.Closer, error) {
	if path == "" {
		return nil, io.NopCloser(nil), nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return &requestLog{role: role, name: name, w: f}, f, nil
}

func (l *requestLog) write(e logEntry, start time.Time) {
	if l == nil {
		return
	}
	e.Time, e.Role, e.Case = start.UTC().Format(time.RFC3339Nano), l.role, l.name
	line, _ := json.Marshal(e)
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(append(line, '\n'))
}

// wrap logs every request h serves, once h is done with it (the body count is then final).
func (l *requestLog) wrap(h http.Handler) http.Handler {
	if l == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		body := &countingBody{ReadCloser: r.Body}
		r.Body = body
		h.ServeHTTP(w, r)
		n := body.n.Load()
		l.write(logEntry{Method: r.Method, Path: r.URL.Path, Proto: r.Proto, Host: r.Host, Headers: r.Header,
			Trailers: r.Trailer, BodyBytes: &n, DurationMS: float64(time.Since(start).Microseconds()) / 1000}, start)
	})
}

// countingBody counts the request body bytes the handler read.
type countingBody struct {
	io.ReadCloser
	n atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}
