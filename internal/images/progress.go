package images

import (
	"bytes"
	"io"
	"sync"
)

// syncWriter passes each write to w whole: concurrent builds' progress lines never interleave.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// lineWriter passes only whole lines to w, so a program's output, which arrives in chunks of
// any size, reaches a shared writer a line at a time. It never fails: the program's log file
// holds its output; the terminal gets a copy.
type lineWriter struct {
	w   io.Writer
	buf []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		_, _ = l.w.Write(l.buf[:i+1])
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
	}
	return len(p), nil
}

// Flush passes on what is left of an unfinished last line, ended.
func (l *lineWriter) Flush() {
	if len(l.buf) > 0 {
		_, _ = l.w.Write(append(l.buf, '\n'))
		l.buf = nil
	}
}
