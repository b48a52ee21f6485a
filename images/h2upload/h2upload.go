package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

const (
	uploadStream = 1 // the one request of a repetition
	// clientWindow is the receive window the client advertises for the stream and the connection:
	// large, so only the server's windows limit the upload.
	clientWindow = 16 << 20
	// maxQueuedControl bounds the frames (ACKs, WINDOW_UPDATEs) waiting for the writer, so a
	// server flooding PINGs or SETTINGS cannot grow the queue without end.
	maxQueuedControl = 4096
)

// warmUpPing is the PING sent after the client's SETTINGS. Its ACK means every frame the server
// sent before it (its SETTINGS and opening WINDOW_UPDATE) has been read, so the upload starts
// with the windows the server meant to give.
var warmUpPing = [8]byte{'h', '2', 'u', 'p', 'l', 'o', 'a', 'd'}

// runH2 is one HTTP/2 repetition on a new connection.
func runH2(ctx context.Context, c config, tlsConf *tls.Config) repResult {
	conn, err := dialTLS(ctx, c.addr, tlsConf, "h2")
	if err != nil {
		return repResult{Reason: err.Error(), connectFailed: true}
	}
	defer conn.Close()
	if p := conn.ConnectionState().NegotiatedProtocol; p != "h2" {
		var r repResult
		r.finish(c.size, time.Time{}, time.Time{}, fmt.Sprintf("server negotiated ALPN %q, not h2", p))
		return r
	}
	// One deadline for reads and writes: whatever the upload waits on when it passes ends it.
	if deadline, ok := ctx.Deadline(); ok {
		conn.SetDeadline(deadline)
	}
	u := newH2Upload(c, conn)
	if err := u.greet(); err != nil {
		u.fail(err)
		return u.result()
	}
	var wg sync.WaitGroup
	wg.Go(u.readLoop)
	wg.Go(u.writeLoop)
	<-u.ended
	conn.Close() // unblocks the loops
	wg.Wait()
	return u.result()
}

// h2Upload is one repetition's connection. The reader goroutine applies the server's frames to
// the state below; the writer goroutine alone writes, so the reader never waits on a write.
type h2Upload struct {
	c     config
	conn  *tls.Conn
	fr    *http2.Framer
	pat   pattern // writer only
	ended chan struct{}

	mu   sync.Mutex
	wake *sync.Cond // the writer waits on it for frames to send or a window to open

	// What the server said (RFC 9113 §6.5.2), and whether the warm-up PING came back.
	peerSettings  bool
	warmedUp      bool
	initialWindow int64 // SETTINGS_INITIAL_WINDOW_SIZE
	maxFrame      uint32

	// The upload's flow control (§6.9).
	streamOpen   bool // HEADERS sent
	streamWindow int64
	connWindow   int64
	sent         int64
	firstData    time.Time
	waiting      bool  // body data is ready and the writer waits for a window
	streamCredit int64 // window the server gave back on the stream since the first DATA
	connCredit   int64 // and on the connection
	control      []func(*http2.Framer) error

	status  int // the response's, 0 until its HEADERS
	answer  []byte
	answerN int64 // the answer's whole length (an echo is as long as the body)
	done    bool
	endedAt time.Time
	failure string
	rec     h2Recorder
}

func newH2Upload(c config, conn *tls.Conn) *h2Upload {
	u := &h2Upload{
		c: c, conn: conn, ended: make(chan struct{}),
		initialWindow: defaultWindow, maxFrame: defaultMaxFrame, connWindow: defaultWindow,
	}
	u.fr = http2.NewFramer(conn, bufio.NewReaderSize(conn, 64<<10))
	u.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	u.wake = sync.NewCond(&u.mu)
	return u
}

// greet sends the connection preface: the client's SETTINGS and window, then the warm-up PING.
func (u *h2Upload) greet() error {
	if _, err := io.WriteString(u.conn, http2.ClientPreface); err != nil {
		return err
	}
	err := u.fr.WriteSettings(
		http2.Setting{ID: http2.SettingEnablePush, Val: 0},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: clientWindow})
	if err != nil {
		return err
	}
	if err := u.fr.WriteWindowUpdate(0, clientWindow-defaultWindow); err != nil {
		return err
	}
	return u.fr.WritePing(false, warmUpPing)
}

// fail ends the repetition with err unless it has already ended.
func (u *h2Upload) fail(err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.failLocked(time.Now(), err)
}

func (u *h2Upload) failLocked(now time.Time, err error) {
	if u.done {
		return
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		u.failure = u.timeoutReason(now)
	} else {
		u.failure = fmt.Sprintf("%v (%d of %d bytes sent)", err, u.sent, u.c.size)
	}
	u.end(now)
}

// end stops both loops; a repetition without failure ended with its complete response.
func (u *h2Upload) end(now time.Time) {
	u.done = true
	u.endedAt = now
	u.rec.block.set(now, false, false)
	close(u.ended)
	u.wake.Broadcast()
}

// timeoutReason says what the upload was waiting for when the repetition's time ran out.
func (u *h2Upload) timeoutReason(now time.Time) string {
	progress := fmt.Sprintf("%d of %d bytes sent", u.sent, u.c.size)
	switch {
	case u.rec.block.blocked():
		return fmt.Sprintf("timed out after %v: blocked on flow control for %v (stream window %d, connection window %d; %s)",
			u.c.timeout, u.rec.block.episode(now).Round(time.Millisecond), u.streamWindow, u.connWindow, progress)
	case !u.peerSettings:
		return fmt.Sprintf("timed out after %v: the server sent no SETTINGS", u.c.timeout)
	case !u.warmedUp:
		return fmt.Sprintf("timed out after %v: the server did not answer PING", u.c.timeout)
	case u.sent == u.c.size:
		return fmt.Sprintf("timed out after %v waiting for the response (all %d bytes sent)", u.c.timeout, u.sent)
	}
	return fmt.Sprintf("timed out after %v while sending with open windows (%s): the network or the server's reading is slow", u.c.timeout, progress)
}

// result is the repetition's outcome once both loops have stopped.
func (u *h2Upload) result() repResult {
	u.mu.Lock()
	defer u.mu.Unlock()
	r := repResult{BytesSent: u.sent, H2: u.rec.record(u.initialWindow, u.maxFrame)}
	reason := u.failure
	if reason == "" {
		reason = verifyAnswer(u.status, u.answer, u.answerN, u.c.size)
	}
	r.finish(u.c.size, u.firstData, u.endedAt, reason)
	return r
}

// noteWindows is called after a window changed: it wakes the writer and, while data waits,
// moves the blocked-time clock at the moment the window opened rather than when the writer runs.
func (u *h2Upload) noteWindows(now time.Time) {
	if u.waiting {
		u.rec.block.set(now, u.streamWindow <= 0, u.connWindow <= 0)
	}
	u.wake.Broadcast()
}
