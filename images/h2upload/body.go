package main

import (
	"io"
	"sync"
	"time"
)

// pattern is the body's content: byte i of the body is i mod 256, so a decrypted trace shows
// where in the body a frame lies. Slices of one shared block serve any offset, so no body-sized
// buffer is ever made.
type pattern struct{ block []byte }

// slice is the n body bytes from offset on, valid until the next call that needs a bigger block.
func (p *pattern) slice(offset int64, n int) []byte {
	if need := n + 256; len(p.block) < need {
		p.block = make([]byte, need)
		for i := range p.block {
			p.block[i] = byte(i)
		}
	}
	start := int(offset % 256)
	return p.block[start : start+n]
}

// bodyReader generates an HTTP/1.1 request body of size bytes and remembers when the transport
// first asked for it: the moment the first body byte goes out.
type bodyReader struct {
	size int64

	mu    sync.Mutex // Read runs on the transport's goroutine, the accessors on the caller's
	sent  int64
	first time.Time
	pat   pattern
}

// bodyChunk bounds one Read, so the pattern block stays small whatever buffer the transport gives.
const bodyChunk = 64 << 10

func (b *bodyReader) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sent >= b.size {
		return 0, io.EOF
	}
	if b.first.IsZero() {
		b.first = time.Now()
	}
	n := int(min(int64(len(p)), b.size-b.sent, bodyChunk))
	copy(p, b.pat.slice(b.sent, n))
	b.sent += int64(n)
	return n, nil
}

// progress is how many bytes were handed to the transport and when the first one was.
func (b *bodyReader) progress() (int64, time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sent, b.first
}
