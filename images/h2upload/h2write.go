package main

import (
	"bytes"
	"fmt"
	"strconv"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// writeFailureGrace is how long a failed write leaves the reader to find the server's reason.
const writeFailureGrace = time.Second

// writeLoop writes what nextJob hands out until the repetition ends.
func (u *h2Upload) writeLoop() {
	for {
		job := u.nextJob()
		if job == nil {
			return
		}
		if err := job(u.fr); err != nil {
			// A server that sends GOAWAY or RST_STREAM and closes makes the next write fail
			// first; the frame saying why is still to be read. The reader ends the repetition
			// with it, or this error does after a moment.
			err = fmt.Errorf("writing to the server: %w", err)
			time.AfterFunc(writeFailureGrace, func() { u.fail(err) })
			return
		}
	}
}

// nextJob waits until there is something to write: frames the reader queued come first, then the
// request HEADERS once the server's SETTINGS are known, then DATA as the windows allow.
func (u *h2Upload) nextJob() func(*http2.Framer) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	for !u.done {
		if len(u.control) > 0 {
			jobs := u.control
			u.control = nil
			return func(fr *http2.Framer) error {
				for _, job := range jobs {
					if err := job(fr); err != nil {
						return err
					}
				}
				return nil
			}
		}
		if !u.streamOpen && u.peerSettings && u.warmedUp {
			u.streamOpen = true
			u.streamWindow = u.initialWindow
			return u.headersJob()
		}
		if u.streamOpen && u.sent < u.c.size {
			if job := u.dataJob(time.Now()); job != nil {
				return job
			}
		}
		u.wake.Wait()
	}
	return nil
}

func (u *h2Upload) headersJob() func(*http2.Framer) error {
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for _, f := range []hpack.HeaderField{
		{Name: ":method", Value: "POST"},
		{Name: ":scheme", Value: "https"},
		{Name: ":authority", Value: u.c.authority()},
		{Name: ":path", Value: "/upload"},
		{Name: "content-type", Value: "application/octet-stream"},
		{Name: "content-length", Value: strconv.FormatInt(u.c.size, 10)},
		{Name: "user-agent", Value: "wirelab-h2upload"},
	} {
		enc.WriteField(f)
	}
	return func(fr *http2.Framer) error {
		return fr.WriteHeaders(http2.HeadersFrameParam{StreamID: uploadStream, BlockFragment: block.Bytes(), EndHeaders: true})
	}
}

// dataJob takes the next DATA frame out of the windows, or (nil) notes that the upload is
// blocked on flow control.
func (u *h2Upload) dataJob(now time.Time) func(*http2.Framer) error {
	n := nextDataLen(u.c.size-u.sent, u.maxFrame, u.streamWindow, u.connWindow)
	if n == 0 {
		if !u.waiting {
			u.waiting = true
			u.rec.block.set(now, u.streamWindow <= 0, u.connWindow <= 0)
		}
		return nil
	}
	// What the measurement rests on: never more than the server allows (RFC 9113 §6.9.1, §4.2).
	if int64(n) > u.streamWindow || int64(n) > u.connWindow || uint32(n) > u.maxFrame {
		panic(fmt.Sprintf("h2upload: DATA of %d bytes beyond the server's limits (stream window %d, connection window %d, max frame %d)",
			n, u.streamWindow, u.connWindow, u.maxFrame))
	}
	if u.waiting {
		u.waiting = false
		u.rec.block.set(now, false, false)
	}
	if u.firstData.IsZero() {
		u.firstData = now
	}
	offset := u.sent
	u.streamWindow -= int64(n)
	u.connWindow -= int64(n)
	u.sent += int64(n)
	u.rec.maxInFlight = max(u.rec.maxInFlight, u.sent-min(u.streamCredit, u.connCredit))
	last := u.sent == u.c.size
	payload := u.pat.slice(offset, n)
	return func(fr *http2.Framer) error { return fr.WriteData(uploadStream, last, payload) }
}
