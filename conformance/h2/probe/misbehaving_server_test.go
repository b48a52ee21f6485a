package probe

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wirelab/wirelab/conformance/h2/h2test"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// floodThreshold: past this many frames a connection counts as flooding. The well-behaved
// client sends one HEADERS per request, far fewer in a test.
const floodThreshold = 500

// fakeOpts shape the raw-Framer test server. At its zero value it is the misbehaving server:
// it acknowledges only a connection's first SETTINGS, answers nothing else (no PING or SETTINGS
// ACK, no RST_STREAM, no GOAWAY), answers requests only until the connection floods, and never
// closes a connection.
type fakeOpts struct {
	// stall holds every response, on every connection, while some connection floods.
	stall bool
	// cutAfter > 0 cuts a connection at that many frames: with GOAWAY ENHANCE_YOUR_CALM (and
	// the connection left open) if goAway, else by closing it without one.
	cutAfter int
	goAway   bool
	// stopReading stops reading a connection once it floods, without closing it.
	stopReading bool
	// loopWork > 0 makes it a server with one event loop for all connections (as nginx's one
	// worker): when a connection starts to flood, the loop works through it, spending loopWork
	// of CPU time, and every response waits for the loop. Not a fault: on an idle machine the
	// well-behaved client waits loopWork at most; on a busy one, as long as the machine takes
	// to give the loop that much CPU.
	loopWork time.Duration
}

type fakeServer struct {
	o        fakeOpts
	flooding atomic.Int32  // connections past floodThreshold, still open
	loop     sync.Mutex    // the one event loop of loopWork
	done     chan struct{} // closed when the test ends
}

func startFakeServer(t *testing.T, o fakeOpts) *Target {
	t.Helper()
	ln := h2test.ListenTLS(t)
	s := &fakeServer{o: o, done: make(chan struct{})}
	t.Cleanup(func() { close(s.done) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				tc := c.(*tls.Conn)
				// Far beyond any probe's bound: only a forgotten connection ever meets it.
				tc.SetDeadline(time.Now().Add(30 * time.Second))
				if tc.Handshake() == nil {
					s.serve(tc)
				}
			}()
		}
	}()
	return testTarget(ln.Addr().String())
}

// fakeConn is one connection's writing side: responses come from their own goroutines.
type fakeConn struct {
	mu   sync.Mutex
	bw   *bufio.Writer
	fr   *http2.Framer
	enc  *hpack.Encoder
	hbuf bytes.Buffer
}

func (fc *fakeConn) write(f func(*http2.Framer) error) error {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if err := f(fc.fr); err != nil {
		return err
	}
	return fc.bw.Flush()
}

func (s *fakeServer) serve(tc *tls.Conn) {
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(tc, preface); err != nil || string(preface) != http2.ClientPreface {
		return
	}
	fc := &fakeConn{bw: bufio.NewWriter(tc)}
	fc.fr = http2.NewFramer(fc.bw, nil)
	fc.enc = hpack.NewEncoder(&fc.hbuf)
	if fc.write(func(fr *http2.Framer) error { return fr.WriteSettings() }) != nil {
		return
	}
	rfr := http2.NewFramer(nil, bufio.NewReader(tc))
	frames, acked, flooding := 0, false, false
	defer func() {
		if flooding {
			s.flooding.Add(-1)
		}
	}()
	for {
		f, err := rfr.ReadFrame()
		var se http2.StreamError
		if errors.As(err, &se) {
			continue // e.g. WINDOW_UPDATE 0 on a stream: ignored, never reset
		}
		if err != nil {
			return
		}
		frames++
		if !flooding && frames > floodThreshold {
			flooding = true
			s.flooding.Add(1)
			if s.o.stopReading {
				<-s.done
				return
			}
			if s.o.loopWork > 0 {
				s.loop.Lock()
				burnCPU(s.o.loopWork)
				s.loop.Unlock()
			}
		}
		if s.o.cutAfter > 0 && frames == s.o.cutAfter {
			if !s.o.goAway {
				return // the deferred Close: no GOAWAY
			}
			fc.write(func(fr *http2.Framer) error {
				return fr.WriteGoAway(f.Header().StreamID, http2.ErrCodeEnhanceYourCalm, nil)
			})
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() && !acked {
				acked = true
				fc.write(func(fr *http2.Framer) error { return fr.WriteSettingsAck() })
			}
		case *http2.HeadersFrame:
			if f.StreamEnded() && f.HeadersEnded() && !flooding {
				go s.respond(fc, f.StreamID)
			}
		}
	}
}

// respond answers any request with 200 and no body, after the stall if there is one.
func (s *fakeServer) respond(fc *fakeConn, id uint32) {
	for s.o.stall && s.flooding.Load() > 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if s.o.loopWork > 0 { // the loop answers once it is free
		s.loop.Lock()
		s.loop.Unlock()
	}
	fc.write(func(fr *http2.Framer) error {
		fc.hbuf.Reset()
		fc.enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
		fc.enc.WriteField(hpack.HeaderField{Name: "content-length", Value: "0"})
		return fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: fc.hbuf.Bytes(), EndStream: true, EndHeaders: true})
	})
}
