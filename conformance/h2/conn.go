package h2

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/wirelab/wirelab/conformance/h2/h2tls"
)

// conn is one raw HTTP/2 client connection. The case's goroutine writes frames and consumes
// received ones through next, which also keeps the flow-control view in peer up to date; a
// reader goroutine copies frames off the wire and answers SETTINGS and PING by itself.
type conn struct {
	tc     *tls.Conn
	target *Target

	wmu  sync.Mutex // serializes writes of the case and the reader's automatic replies
	bw   *bufio.Writer
	wfr  *http2.Framer
	henc *hpack.Encoder
	hbuf bytes.Buffer

	log       frameLog
	events    chan frame
	done      chan struct{}
	closeOnce sync.Once

	nextID       uint32
	pings        uint64
	settingsSent int        // non-ACK SETTINGS frames the client sent
	peer         peerState  // owned by the case's goroutine
	own          ownWindows // what the client granted, owned by the case's goroutine
}

// dialOpts shape the client's side of the connection.
type dialOpts struct {
	settings   []http2.Setting // the client's SETTINGS frame
	connWindow uint32          // extra connection receive window granted right after it
}

// dial connects, exchanges prefaces and synchronizes with a PING round trip, so that the
// server's SETTINGS and initial WINDOW_UPDATEs are known when the case starts. On errors after
// the TLS handshake the conn is returned too, for its frame log.
func dial(ctx context.Context, t *Target, o dialOpts) (*conn, error) {
	tc, err := h2tls.DialH2(ctx, nil, t.Addr, t.TLS, t.KeyLog)
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		// A backstop for blocking writes: the case's context ends first and names the timeout.
		tc.SetDeadline(dl.Add(time.Second))
	}
	c := &conn{
		tc:     tc,
		target: t,
		bw:     bufio.NewWriterSize(tc, 64<<10),
		events: make(chan frame, 1024),
		done:   make(chan struct{}),
		nextID: 1,
		peer:   newPeerState(),
		own:    ownWindows{initial: defaultWindow, credit: map[uint32]int64{}},
	}
	c.wfr = http2.NewFramer(c.bw, nil)
	c.henc = hpack.NewEncoder(&c.hbuf)
	rfr := http2.NewFramer(nil, bufio.NewReaderSize(tc, 64<<10))
	rfr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)

	// The preface is buffered before the reader starts: its SETTINGS ACK must not go first.
	_, err = c.bw.WriteString(http2.ClientPreface)
	if err == nil {
		err = c.writeSettings(o.settings...)
	}
	if err == nil && o.connWindow > 0 {
		err = c.writeWindowUpdate(0, o.connWindow)
	}
	go c.readLoop(rfr)
	if err != nil {
		return c, err
	}
	first, err := c.next(ctx)
	if err != nil {
		return c, fmt.Errorf("waiting for the server's SETTINGS: %w", err)
	}
	if first.typ != http2.FrameSettings || first.flags.Has(http2.FlagSettingsAck) {
		return c, fmt.Errorf("server preface starts with %s, want SETTINGS", first.typ)
	}
	if err := c.peer.settingsErr; err != nil {
		return c, err // the reader answered it with GOAWAY
	}
	if err := c.sync(ctx); err != nil {
		return c, err
	}
	if err := c.peer.settingsErr; err != nil {
		return c, err
	}
	return c, nil
}

// Probe checks that the target accepts TLS with ALPN h2 (h2check's "can connect at all").
func Probe(ctx context.Context, t *Target) error {
	tc, err := h2tls.DialH2(ctx, nil, t.Addr, t.TLS, t.KeyLog)
	if err != nil {
		return err
	}
	return tc.Close()
}

func (c *conn) close() {
	c.closeOnce.Do(func() {
		close(c.done)
		c.tc.Close()
	})
}

// readLoop copies each frame, logs it, answers SETTINGS and PING, and hands it to the case.
func (c *conn) readLoop(rfr *http2.Framer) {
	for {
		f, err := rfr.ReadFrame()
		var ev frame
		if err != nil {
			ev = frame{err: err}
			select {
			case <-c.done:
			default:
				c.log.add("< read error: "+truncate(err.Error(), 100), "", 0)
			}
		} else {
			ev = copyFrame(f)
			c.logFrame("<", &ev)
			c.autoReply(&ev)
		}
		select {
		case c.events <- ev:
		case <-c.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// autoReply acknowledges valid SETTINGS and answers PINGs at once, as a real client would, and
// turns invalid SETTINGS into the connection error the RFC asks for.
func (c *conn) autoReply(f *frame) {
	switch {
	case f.typ == http2.FrameSettings && !f.flags.Has(http2.FlagSettingsAck):
		if err := checkSettings(f.set); err != nil {
			c.writeGoAway(err.code)
		} else {
			c.write(&frame{typ: http2.FrameSettings, flags: http2.FlagSettingsAck}, func() error { return c.wfr.WriteSettingsAck() })
		}
	case f.typ == http2.FramePing && !f.flags.Has(http2.FlagPingAck):
		c.write(&frame{typ: http2.FramePing, flags: http2.FlagPingAck}, func() error { return c.wfr.WritePing(true, f.ping) })
	default:
		return
	}
	c.flush()
}

// next flushes what the case wrote, then returns the next received frame after applying it to
// the flow-control view. A closed connection or an expired context is an error. A failed flush
// is not: the connection is then gone, and the frames that arrived before (a GOAWAY) say why.
func (c *conn) next(ctx context.Context) (frame, error) {
	c.flush()
	if c.peer.readErr != nil && len(c.events) == 0 {
		return frame{}, c.peer.readErr
	}
	select {
	case ev := <-c.events:
		c.peer.apply(&ev)
		if ev.err != nil {
			return ev, c.peer.readErr
		}
		return ev, nil
	case <-ctx.Done():
		return frame{}, ctx.Err()
	}
}

// errQuiet is poll's answer when no frame arrived in time: not a connection error.
var errQuiet = errors.New("no frame within the poll interval")

// poll is next bounded by d, for a case that acts on the passing of time as well as on frames.
func (c *conn) poll(ctx context.Context, d time.Duration) (frame, error) {
	pctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	f, err := c.next(pctx)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return f, errQuiet
	}
	return f, err
}

// waitFor consumes frames until cond holds.
func (c *conn) waitFor(ctx context.Context, cond func() bool) error {
	for !cond() {
		if _, err := c.next(ctx); err != nil {
			return err
		}
	}
	return nil
}

// sync sends a PING and waits for its ACK: every frame the server sent before it processed the
// PING has then been applied.
func (c *conn) sync(ctx context.Context) error {
	p, err := c.ping()
	if err != nil {
		return err
	}
	if err := c.waitFor(ctx, func() bool { return c.peer.pingAck == p || c.peer.closed() }); err != nil {
		return fmt.Errorf("PING round trip: %w", err)
	}
	if c.peer.pingAck != p {
		return fmt.Errorf("PING round trip: %w", errClosed)
	}
	return nil
}

// ping sends a PING with a fresh payload (peer.pingAck shows when it is answered).
func (c *conn) ping() ([8]byte, error) {
	c.pings++
	var p [8]byte
	for i := range p {
		p[i] = byte(c.pings >> (8 * i))
	}
	return p, c.write(&frame{typ: http2.FramePing}, func() error { return c.wfr.WritePing(false, p) })
}

// errClosed reports a connection the server ended.
var errClosed = errors.New("connection closed")

// graceTime is how long a case waits, after a PING round trip, for a frame the server may send
// late (some servers queue RST_STREAM behind PING ACKs).
const graceTime = 250 * time.Millisecond
