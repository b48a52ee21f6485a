package h2

import (
	"fmt"
	"sync"
)

// frameLog keeps a short, bounded record of a connection's frames. Runs of DATA and
// WINDOW_UPDATE frames on one stream in one direction collapse into a single line, and beyond
// logHead+logTail lines only the first and the last are kept, with a count of what was dropped.
type frameLog struct {
	mu      sync.Mutex
	head    []logEntry
	tail    []logEntry // ring of the newest entries once head is full
	next    int        // write position in tail
	dropped int
}

const (
	logHead = 40
	logTail = 20
)

type logEntry struct {
	text  string // the frame as one line, or the run's kind for collapsible entries
	key   string // non-empty for collapsible entries: direction, type, stream
	count int
	bytes int64 // DATA length or WINDOW_UPDATE increment summed over the run
}

func (e logEntry) String() string {
	if e.key == "" || e.count == 1 {
		return e.text
	}
	return fmt.Sprintf("%s x%d (%d bytes)", e.key, e.count, e.bytes)
}

// add records a frame. key/n make it collapsible (key "" for frames shown one by one).
func (l *frameLog) add(text, key string, n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if key != "" {
		// Merge into one of the newest entries, so interleaved DATA / WINDOW_UPDATE runs
		// (stream and connection) collapse too.
		for back := 1; back <= 4; back++ {
			e := l.newest(back)
			if e == nil || e.key == "" {
				break
			}
			if e.key == key {
				e.count++
				e.bytes += n
				return
			}
		}
	}
	e := logEntry{text: text, key: key, count: 1, bytes: n}
	switch {
	case len(l.head) < logHead:
		l.head = append(l.head, e)
	case len(l.tail) < logTail:
		l.tail = append(l.tail, e)
	default:
		l.tail[l.next] = e
		l.next = (l.next + 1) % logTail
		l.dropped++
	}
}

// newest returns the back-th newest entry (1 = newest), or nil.
func (l *frameLog) newest(back int) *logEntry {
	if n := len(l.tail); n > 0 {
		if back > n {
			if len(l.tail) < logTail { // tail not yet a ring: continue into head
				back -= n
				if back > len(l.head) {
					return nil
				}
				return &l.head[len(l.head)-back]
			}
			return nil
		}
		return &l.tail[(l.next-back+n)%n]
	}
	if back > len(l.head) {
		return nil
	}
	return &l.head[len(l.head)-back]
}

func (l *frameLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.head)+len(l.tail)+1)
	for _, e := range l.head {
		out = append(out, e.String())
	}
	if l.dropped > 0 {
		out = append(out, fmt.Sprintf("... %d entries omitted ...", l.dropped))
	}
	for i := range l.tail {
		out = append(out, l.tail[(l.next+i)%len(l.tail)].String())
	}
	return out
}
