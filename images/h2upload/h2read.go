package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"golang.org/x/net/http2"
)

// readLoop applies the server's frames until the repetition ends.
func (u *h2Upload) readLoop() {
	for {
		f, err := u.fr.ReadFrame()
		if err != nil {
			u.fail(describeReadError(err))
			return
		}
		u.mu.Lock()
		now := time.Now()
		if err := u.handle(now, f); err != nil {
			u.failLocked(now, err)
		}
		done := u.done
		u.mu.Unlock()
		if done {
			return
		}
	}
}

// describeReadError names what a failed read means for the server.
func describeReadError(err error) error {
	var connErr http2.ConnectionError
	var streamErr http2.StreamError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("server closed the connection")
	case errors.As(err, &connErr), errors.As(err, &streamErr):
		return fmt.Errorf("server sent an invalid frame: %v", err)
	}
	return err
}

// handle applies one frame (under u.mu); an error ends the repetition.
func (u *h2Upload) handle(now time.Time, f http2.Frame) error {
	switch f := f.(type) {
	case *http2.SettingsFrame:
		if f.IsAck() {
			return nil
		}
		return u.onSettings(now, f)
	case *http2.WindowUpdateFrame:
		return u.onWindowUpdate(now, f)
	case *http2.PingFrame:
		if f.IsAck() {
			if f.Data == warmUpPing {
				u.warmedUp = true
				u.wake.Broadcast()
			}
			return nil
		}
		data := f.Data
		return u.queue(func(fr *http2.Framer) error { return fr.WritePing(true, data) })
	case *http2.GoAwayFrame:
		// A graceful GOAWAY that still covers the upload's stream lets it finish.
		if f.ErrCode != http2.ErrCodeNo || f.LastStreamID < uploadStream {
			return fmt.Errorf("server sent GOAWAY %v (last stream %d)%s", f.ErrCode, f.LastStreamID, debugText(f.DebugData()))
		}
	case *http2.RSTStreamFrame:
		if f.StreamID == uploadStream {
			return fmt.Errorf("server reset the stream with %v", f.ErrCode)
		}
	case *http2.MetaHeadersFrame:
		if f.StreamID == uploadStream {
			return u.onResponseHeaders(now, f)
		}
	case *http2.DataFrame:
		if f.StreamID == uploadStream {
			return u.onResponseData(now, f)
		}
	case *http2.PushPromiseFrame:
		return errors.New("server sent PUSH_PROMISE although the client's SETTINGS_ENABLE_PUSH is 0")
	}
	return nil
}

func debugText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return ": " + oneLine(string(b))
}

// onSettings records the server's parameters, applies them and queues the ACK.
func (u *h2Upload) onSettings(now time.Time, f *http2.SettingsFrame) error {
	err := f.ForeachSetting(func(s http2.Setting) error {
		u.rec.setting(s)
		if err := s.Valid(); err != nil {
			return fmt.Errorf("server sent an invalid setting %v: %v", s, err)
		}
		switch s.ID {
		case http2.SettingInitialWindowSize:
			delta := int64(s.Val) - u.initialWindow
			u.initialWindow = int64(s.Val)
			// §6.9.2: a change applies to the open stream's window at once, and may make it
			// negative; the connection window is not affected.
			if u.streamOpen {
				u.streamWindow += delta
				if !u.firstData.IsZero() {
					u.streamCredit += delta
				}
				if u.streamWindow > maxWindow {
					return fmt.Errorf("server's SETTINGS_INITIAL_WINDOW_SIZE %d overflowed the stream window (FLOW_CONTROL_ERROR)", s.Val)
				}
			}
		case http2.SettingMaxFrameSize:
			u.maxFrame = s.Val
		}
		return nil
	})
	if err != nil {
		return err
	}
	u.peerSettings = true
	u.noteWindows(now)
	return u.queue(func(fr *http2.Framer) error { return fr.WriteSettingsAck() })
}

// onWindowUpdate credits the connection or the upload's stream.
func (u *h2Upload) onWindowUpdate(now time.Time, f *http2.WindowUpdateFrame) error {
	inc := int64(f.Increment)
	switch {
	case f.StreamID == 0:
		u.connWindow += inc
		if u.connWindow > maxWindow {
			return fmt.Errorf("server's WINDOW_UPDATE of %d overflowed the connection window (FLOW_CONTROL_ERROR)", inc)
		}
		if u.firstData.IsZero() {
			u.rec.initialConnGrant += inc
		} else {
			u.rec.connUpdates.add(now, f.Increment)
			u.connCredit += inc
		}
	case f.StreamID == uploadStream && u.streamOpen:
		u.streamWindow += inc
		if u.streamWindow > maxWindow {
			return fmt.Errorf("server's WINDOW_UPDATE of %d overflowed the stream window (FLOW_CONTROL_ERROR)", inc)
		}
		u.rec.streamUpdates.add(now, f.Increment)
		if !u.firstData.IsZero() {
			u.streamCredit += inc
		}
	}
	u.noteWindows(now)
	return nil
}

func (u *h2Upload) onResponseHeaders(now time.Time, f *http2.MetaHeadersFrame) error {
	if u.status == 0 {
		status, err := strconv.Atoi(f.PseudoValue("status"))
		if err != nil {
			return fmt.Errorf("server's response has no valid :status (%q)", f.PseudoValue("status"))
		}
		if status < 200 {
			return nil // an interim response (100 Continue): the final one follows
		}
		u.status = status
	}
	// Otherwise these are trailers.
	if f.StreamEnded() {
		u.end(now)
	}
	return nil
}

// onResponseData keeps the start of the answer and gives its bytes back to the server's send
// windows, as a receiver must.
func (u *h2Upload) onResponseData(now time.Time, f *http2.DataFrame) error {
	if u.status == 0 {
		return errors.New("server sent DATA before the response HEADERS")
	}
	data := f.Data()
	u.answer = append(u.answer, data[:min(len(data), maxAnswer-len(u.answer))]...)
	u.answerN += int64(len(data))
	if n := f.Header().Length; n > 0 { // padding included (§6.1)
		ended := f.StreamEnded()
		err := u.queue(func(fr *http2.Framer) error {
			if err := fr.WriteWindowUpdate(0, n); err != nil || ended {
				return err
			}
			return fr.WriteWindowUpdate(uploadStream, n)
		})
		if err != nil {
			return err
		}
	}
	if f.StreamEnded() {
		u.end(now)
	}
	return nil
}

// queue hands a frame to the writer.
func (u *h2Upload) queue(job func(*http2.Framer) error) error {
	if len(u.control) >= maxQueuedControl {
		return fmt.Errorf("server sent more than %d frames that need an answer faster than they could be answered", maxQueuedControl)
	}
	u.control = append(u.control, job)
	u.wake.Broadcast()
	return nil
}
