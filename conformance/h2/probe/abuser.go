package probe

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
)

// A flood ends with one of these: errBound when the frame or time budget is spent, errCut
// when the server cut the abusive connection (GOAWAY, close, reset).
var (
	errBound = errors.New("bound reached")
	errCut   = errors.New("server cut the connection")
)

const (
	flushEvery     = 32      // frames buffered before they go on the wire
	peerCheckEvery = 64      // frames between two looks for a FIN/RST when not reading
	connWindow     = 1 << 30 // granted at once: responses never wait for the connection window
)

// abuser is the abusive raw connection of one probe. The probe's goroutine writes; a reader
// goroutine (from the start for probes that read, else after the flood) watches for GOAWAY and
// the end of the connection.
type abuser struct {
	tc        *tls.Conn
	bw        *bufio.Writer
	wfr, rfr  *http2.Framer
	lim       Limits
	reads     bool
	authority string

	maxFrameSize uint32 // the server's SETTINGS_MAX_FRAME_SIZE
	maxStreams   uint32 // the server's SETTINGS_MAX_CONCURRENT_STREAMS

	start, deadline time.Time
	frames          atomic.Int64
	nextID          uint32

	mu         sync.Mutex
	out        outcome
	cut        chan struct{} // closed at the first sign of a cut
	closing    atomic.Bool   // our own close: the reader's error is not the server's doing
	readerDone chan struct{}
}

// outcome is what the server did to the abusive connection.
type outcome struct {
	goAway    bool
	code      http2.ErrCode
	closed    bool
	cutAt     time.Duration // since the flood began, at the first sign
	cutFrames int64         // frames sent by then
	stalled   bool          // writes blocked until the bound: the server stopped reading
}

func (o outcome) isCut() bool { return o.goAway || o.closed }

// dialAbuser connects and completes the HTTP/2 handshake: both SETTINGS exchanged and
// acknowledged, so the flood starts on a settled connection. A probe that does not read gets a
// small receive buffer (AbuserReadBuffer).
func dialAbuser(ctx context.Context, t *Target, p Probe, lim Limits) (*abuser, error) {
	readBuffer := 0
	if !p.Reads {
		readBuffer = AbuserReadBuffer
	}
	tc, err := t.dial(ctx, readBuffer)
	if err != nil {
		return nil, err
	}
	a := &abuser{
		tc:           tc,
		bw:           bufio.NewWriterSize(tc, 32<<10),
		lim:          lim,
		reads:        p.Reads,
		authority:    t.authority(),
		maxFrameSize: 16384,
		maxStreams:   ^uint32(0),
		nextID:       1,
		cut:          make(chan struct{}),
		readerDone:   make(chan struct{}),
	}
	a.wfr = http2.NewFramer(a.bw, nil)
	a.wfr.AllowIllegalWrites = true // the probes write what a server must refuse
	a.rfr = http2.NewFramer(nil, bufio.NewReaderSize(tc, 32<<10))
	a.rfr.SetMaxReadFrameSize(1 << 24)
	if err := a.handshake(ctx, p.Settings); err != nil {
		tc.NetConn().Close()
		return nil, fmt.Errorf("HTTP/2 handshake: %w", err)
	}
	return a, nil
}

func (a *abuser) handshake(ctx context.Context, settings []http2.Setting) error {
	dl := time.Now().Add(HandshakeTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(dl) {
		dl = d
	}
	a.tc.SetDeadline(dl)
	defer a.tc.SetDeadline(time.Time{})
	if _, err := a.bw.WriteString(http2.ClientPreface); err != nil {
		return err
	}
	if err := a.wfr.WriteSettings(settings...); err != nil {
		return err
	}
	if err := a.wfr.WriteWindowUpdate(0, connWindow); err != nil {
		return err
	}
	if err := a.bw.Flush(); err != nil {
		return err
	}
	var gotSettings, gotAck bool
	for !gotSettings || !gotAck {
		f, err := a.rfr.ReadFrame()
		if err != nil {
			return err
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if f.IsAck() {
				gotAck = true
				continue
			}
			gotSettings = true
			if v, ok := f.Value(http2.SettingMaxFrameSize); ok {
				a.maxFrameSize = v
			}
			if v, ok := f.Value(http2.SettingMaxConcurrentStreams); ok {
				a.maxStreams = v
			}
			if err := a.wfr.WriteSettingsAck(); err != nil {
				return err
			}
			if err := a.bw.Flush(); err != nil {
				return err
			}
		case *http2.GoAwayFrame:
			return fmt.Errorf("server sent GOAWAY %v", f.ErrCode)
		}
	}
	return nil
}

// begin starts the clock and, for a probe that reads, the reader. Writes blocked past the
// deadline fail: a server that stops reading cannot hold the probe beyond its bound.
func (a *abuser) begin() {
	a.start = time.Now()
	a.deadline = a.start.Add(a.lim.Duration)
	a.tc.SetWriteDeadline(a.deadline)
	if a.reads {
		go a.readLoop()
	}
}

// end flushes what is left of the flood and waits until the server's TCP has acknowledged all
// of it (on a slow link the kernel may hold megabytes), unless the bound or a cut comes first:
// the grace period starts when the flood has arrived, not when it was written.
func (a *abuser) end() {
	if err := a.bw.Flush(); err != nil {
		a.writeFailed(err)
	}
	for unsent(a.tc.NetConn()) > 0 {
		if !time.Now().Before(a.deadline) {
			a.mu.Lock()
			a.out.stalled = true // the server no longer takes what it was sent
			a.mu.Unlock()
			return
		}
		select {
		case <-a.cut:
			return
		case <-time.After(5 * time.Millisecond):
		}
		if !a.reads && peerClosed(a.tc.NetConn()) {
			a.noteClosed()
		}
	}
}

// settle gives the server until graceEnd to react to what is in flight. A probe that reads
// goes on reading. One that does not goes on not reading (draining the answers now would
// relieve the very queue it tests) and only watches for FIN or RST; then it reads what is
// queued, for at most DrainTime, to find a GOAWAY behind the unread answers.
func (a *abuser) settle(ctx context.Context, graceEnd time.Time) {
	if a.reads {
		return
	}
	for time.Now().Before(graceEnd) && ctx.Err() == nil && !peerClosed(a.tc.NetConn()) {
		time.Sleep(5 * time.Millisecond)
	}
	if peerClosed(a.tc.NetConn()) {
		a.noteClosed()
	}
	a.tc.SetReadDeadline(time.Now().Add(DrainTime))
	go a.readLoop()
	<-a.readerDone
}

// close drops the TCP connection without TLS close_notify, which could block on a server that
// no longer reads.
func (a *abuser) close() {
	a.closing.Store(true)
	a.tc.NetConn().Close()
	if a.reads {
		<-a.readerDone
	}
}

// send writes one frame within the bounds.
func (a *abuser) send(write func(*http2.Framer) error) error {
	if err := a.check(); err != nil {
		return err
	}
	if err := write(a.wfr); err != nil {
		return a.writeFailed(err)
	}
	if a.frames.Add(1)%flushEvery == 0 {
		return a.flush()
	}
	return nil
}

// check says whether the flood may go on.
func (a *abuser) check() error {
	select {
	case <-a.cut:
		return errCut
	default:
	}
	n := a.frames.Load()
	if n >= int64(a.lim.Frames) || !time.Now().Before(a.deadline) {
		return errBound
	}
	if !a.reads && n%peerCheckEvery == 0 && peerClosed(a.tc.NetConn()) {
		a.noteClosed()
		return errCut
	}
	return nil
}

func (a *abuser) flush() error {
	if err := a.bw.Flush(); err != nil {
		return a.writeFailed(err)
	}
	return nil
}

// wait paces a probe: it flushes, then sleeps d unless the bound or a cut comes first.
func (a *abuser) wait(d time.Duration) error {
	if err := a.flush(); err != nil {
		return err
	}
	t := time.NewTimer(min(d, time.Until(a.deadline)))
	defer t.Stop()
	select {
	case <-a.cut:
		return errCut
	case <-t.C:
	}
	return a.check()
}

// writeFailed classifies a write error: past the deadline the server had stopped reading;
// anything else means the connection is gone.
func (a *abuser) writeFailed(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		a.mu.Lock()
		a.out.stalled = true
		a.mu.Unlock()
		return errBound
	}
	a.noteClosed()
	return errCut
}

func (a *abuser) newStream() uint32 {
	id := a.nextID
	a.nextID += 2
	return id
}

func (a *abuser) noteGoAway(code http2.ErrCode) {
	a.note(func(o *outcome) { o.goAway, o.code = true, code })
}

func (a *abuser) noteClosed() { a.note(func(o *outcome) { o.closed = true }) }

// note records a sign of a cut; the first one fixes when and after how many frames.
func (a *abuser) note(set func(*outcome)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.out.isCut() {
		a.out.cutAt = time.Since(a.start)
		a.out.cutFrames = a.frames.Load()
		close(a.cut)
	}
	set(&a.out)
}

func (a *abuser) outcome() outcome {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.out
}
