package h2

import (
	"errors"
	"fmt"
	"io"

	"golang.org/x/net/http2"
)

// peerState is the client's view of the connection, built from the frames received so far.
// "send" windows are the server's receive windows as the client must respect them.
type peerState struct {
	settings    [][]http2.Setting // the server's SETTINGS frames, in order of arrival
	settingsErr *settingsError    // a SETTINGS value the RFC makes a connection error
	initial     int64             // server's SETTINGS_INITIAL_WINDOW_SIZE
	maxFrame    uint32            // server's SETTINGS_MAX_FRAME_SIZE
	sendConn    int64             // room left in the server's connection window
	connCredit  int64             // sum of connection WINDOW_UPDATE increments received
	recvConn    int64             // flow-controlled DATA bytes received on the connection
	acks        int               // SETTINGS ACKs received
	pingAck     [8]byte
	streams     map[uint32]*stream
	goaway      *frame
	readErr     error
}

// stream is one request's state.
type stream struct {
	id         uint32
	sendWin    int64 // room left in the server's window for this stream
	credit     int64 // sum of stream WINDOW_UPDATE increments received
	clientDone bool  // END_STREAM or RST_STREAM sent: the client sends no more DATA
	headers    *frame
	ended      bool // END_STREAM received
	reset      *http2.ErrCode
	body       []byte // the first bodyKeep bytes
	bodyLen    int64
	recvd      int64 // flow-controlled DATA bytes received (padding included)
	sent       int64 // flow-controlled DATA bytes sent
}

func newPeerState() peerState {
	return peerState{initial: defaultWindow, maxFrame: 16384, sendConn: defaultWindow, streams: map[uint32]*stream{}}
}

func (p *peerState) openStream(id uint32) {
	p.streams[id] = &stream{id: id, sendWin: p.initial}
}

// charge deducts a sent DATA frame from the windows it uses.
func (p *peerState) charge(id uint32, n int64, end bool) {
	p.sendConn -= n
	if s := p.streams[id]; s != nil && !s.clientDone {
		s.sent += n
		s.sendWin -= n
		s.clientDone = end
	}
}

// closed reports a connection that can carry nothing more: GOAWAY with an error, or gone.
func (p *peerState) closed() bool {
	return p.readErr != nil || p.goaway != nil && p.goaway.code != http2.ErrCodeNo
}

func (p *peerState) apply(f *frame) {
	if f.err != nil {
		if errors.Is(f.err, io.EOF) {
			p.readErr = errClosed
		} else {
			p.readErr = f.err
		}
		return
	}
	s := p.streams[f.stream]
	switch f.typ {
	case http2.FrameSettings:
		if f.flags.Has(http2.FlagSettingsAck) {
			p.acks++
			return
		}
		p.settings = append(p.settings, f.set)
		if err := checkSettings(f.set); err != nil && p.settingsErr == nil {
			p.settingsErr = err
		}
		for _, st := range f.set {
			switch st.ID {
			case http2.SettingInitialWindowSize:
				// §6.9.2: the change applies to every open stream's window.
				delta := int64(st.Val) - p.initial
				p.initial = int64(st.Val)
				for _, s := range p.streams {
					s.sendWin += delta
				}
			case http2.SettingMaxFrameSize:
				p.maxFrame = st.Val
			}
		}
	case http2.FrameWindowUpdate:
		if f.stream == 0 {
			p.sendConn += int64(f.incr)
			p.connCredit += int64(f.incr)
		} else if s != nil {
			s.sendWin += int64(f.incr)
			s.credit += int64(f.incr)
		}
	case http2.FrameHeaders:
		if s != nil && s.headers == nil {
			s.headers = f
		}
	case http2.FrameData:
		p.recvConn += int64(f.length)
		if s != nil {
			s.recvd += int64(f.length)
			s.bodyLen += int64(f.dataLen)
			if room := bodyKeep - len(s.body); room > 0 {
				s.body = append(s.body, f.data[:min(room, len(f.data))]...)
			}
		}
	case http2.FrameRSTStream:
		if s != nil {
			code := f.code
			s.reset = &code
		}
	case http2.FrameGoAway:
		p.goaway = f
	case http2.FramePing:
		if f.flags.Has(http2.FlagPingAck) {
			p.pingAck = f.ping
		}
	}
	if s != nil && f.endStream() {
		s.ended = true
	}
}

// setting returns the value of a setting the server sent, if it did.
func (p *peerState) setting(id http2.SettingID) (uint32, bool) {
	for i := len(p.settings) - 1; i >= 0; i-- {
		for j := len(p.settings[i]) - 1; j >= 0; j-- {
			if s := p.settings[i][j]; s.ID == id {
				return s.Val, true
			}
		}
	}
	return 0, false
}

// settingsError is a SETTINGS value the client must treat as a connection error.
type settingsError struct {
	setting http2.Setting
	code    http2.ErrCode
}

func (e *settingsError) Error() string {
	return fmt.Sprintf("server sent %s=%d: connection error %s", e.setting.ID, e.setting.Val, e.code)
}

// checkSettings applies RFC 9113 §6.5.2's limits (x/net's Setting.Valid) and RFC 9218 §2.1's
// rule that SETTINGS_NO_RFC7540_PRIORITIES is 0 or 1.
func checkSettings(set []http2.Setting) *settingsError {
	for _, s := range set {
		if err := s.Valid(); err != nil {
			code := http2.ErrCodeProtocol
			var ce http2.ConnectionError
			if errors.As(err, &ce) {
				code = http2.ErrCode(ce)
			}
			return &settingsError{s, code}
		}
		if s.ID == http2.SettingNoRFC7540Priorities && s.Val > 1 {
			return &settingsError{s, http2.ErrCodeProtocol}
		}
	}
	return nil
}

// streamEnd describes how a stream ended, for reasons: "RST_STREAM FLOW_CONTROL_ERROR",
// "GOAWAY PROTOCOL_ERROR", ":status 200", or "".
func (p *peerState) streamEnd(id uint32) string {
	s := p.streams[id]
	connErr := p.goaway != nil && p.goaway.code != http2.ErrCodeNo
	switch {
	case s != nil && s.reset != nil && (*s.reset != http2.ErrCodeNo || !connErr):
		return "RST_STREAM " + s.reset.String()
	case connErr: // a RST_STREAM NO_ERROR that came with it says less
		return "GOAWAY " + p.goaway.code.String()
	case s != nil && s.ended && s.headers != nil:
		return ":status " + s.headers.status()
	case p.readErr != nil:
		return "connection closed"
	}
	return ""
}
