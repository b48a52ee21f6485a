package h2test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// The raw server's own windows and limits. Its stream window (65,535) is smaller than the frame
// size it accepts (1 MiB), like nghttpd's or Apache's defaults, so a single frame can overrun it.
const (
	rawStreamWindow = 65535
	rawConnWindow   = 1 << 20
	rawMaxFrame     = 1 << 20
	maxWindow       = 1<<31 - 1
)

// StartRaw runs the minimal raw-frame HTTP/2 server with the given faults until the test ends,
// and returns its address. It serves the same contract as Contract, one goroutine per
// connection, reacting only to the frames it reads (no timers, no handlers).
func StartRaw(t testing.TB, faults Fault) string {
	ln := ListenTLS(t)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serveRaw(c, faults)
		}
	}()
	return ln.Addr().String()
}

// rawConn is one connection's state. "recv" windows are the server's own (the client must stay
// within them), "send" windows the client's.
type rawConn struct {
	faults Fault
	br     *bufio.Reader
	bw     *bufio.Writer
	fr     *http2.Framer
	henc   *hpack.Encoder
	hbuf   bytes.Buffer

	connWindow  int64 // the server's connection window size
	recvConn    int64 // room left in the server's connection window
	creditConn  int64 // consumed and not yet credited back
	sendConn    int64
	sendInitial int64 // the client's SETTINGS_INITIAL_WINDOW_SIZE
	peerFrame   int64 // the client's SETTINGS_MAX_FRAME_SIZE
	maxID       uint32
	lastServed  uint32                // RoundRobin: the stream that sent the last DATA frame
	streams     map[uint32]*rawStream // open (or half-closed) streams
}

type rawStream struct {
	id        uint32
	upload    bool   // POST /upload: the body is consumed and credited
	count     int64  // body octets received
	echo      []byte // the body, kept to send back with EchoUpload
	recv      int64  // room left in the server's window for this stream
	credit    int64
	reqDone   bool // END_STREAM received
	send      int64
	status    string
	body      []byte // response body still to send
	responded bool   // response started (HEADERS sent)
	respDone  bool
}

func serveRaw(nc net.Conn, faults Fault) {
	defer nc.Close()
	window := int64(rawConnWindow)
	if faults&HugeConnWindow != 0 {
		window = maxWindow
	}
	c := &rawConn{
		faults:      faults,
		br:          bufio.NewReaderSize(nc, 128<<10),
		bw:          bufio.NewWriterSize(nc, 64<<10),
		connWindow:  window,
		recvConn:    window,
		sendConn:    65535,
		sendInitial: 65535,
		peerFrame:   16384,
		streams:     map[uint32]*rawStream{},
	}
	c.fr = http2.NewFramer(c.bw, c.br)
	c.fr.SetMaxReadFrameSize(rawMaxFrame)
	c.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	c.henc = hpack.NewEncoder(&c.hbuf)

	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(c.br, preface); err != nil || string(preface) != http2.ClientPreface {
		return
	}
	prio := uint32(1)
	if faults&SendPrioritiesTwo != 0 {
		prio = 2
	}
	c.fr.WriteSettings(
		http2.Setting{ID: http2.SettingMaxFrameSize, Val: rawMaxFrame},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: rawStreamWindow},
		http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: 100},
		http2.Setting{ID: http2.SettingNoRFC7540Priorities, Val: prio},
	)
	c.fr.WriteWindowUpdate(0, uint32(window-65535))
	c.bw.Flush()

	for {
		f, err := c.fr.ReadFrame()
		if err == nil {
			err = c.handle(f)
		}
		var se http2.StreamError
		var ce http2.ConnectionError
		switch {
		case errors.As(err, &se):
			c.reset(se.StreamID, se.Code)
		case errors.As(err, &ce):
			c.fr.WriteGoAway(c.maxID, http2.ErrCode(ce), nil)
			c.bw.Flush()
			return
		case err != nil:
			return
		}
		if c.faults&RoundRobin == 0 || c.br.Buffered() == 0 {
			c.pump()
		}
		// Credit what was consumed once the input read so far is processed: frames written
		// together are judged against the same window, as a busy server would.
		if c.br.Buffered() == 0 {
			c.sendCredit()
		}
		if c.bw.Flush() != nil {
			return
		}
	}
}

var errClientGoAway = errors.New("client sent GOAWAY")

func (c *rawConn) handle(f http2.Frame) error {
	switch f := f.(type) {
	case *http2.SettingsFrame:
		if f.IsAck() {
			return nil
		}
		if err := f.ForeachSetting(c.applySetting); err != nil {
			return err
		}
		return c.fr.WriteSettingsAck()
	case *http2.PingFrame:
		if !f.IsAck() {
			return c.fr.WritePing(true, f.Data)
		}
	case *http2.WindowUpdateFrame:
		return c.windowUpdate(f.StreamID, int64(f.Increment))
	case *http2.MetaHeadersFrame:
		return c.request(f)
	case *http2.DataFrame:
		return c.data(f)
	case *http2.RSTStreamFrame:
		if f.StreamID > c.maxID {
			return http2.ConnectionError(http2.ErrCodeProtocol)
		}
		delete(c.streams, f.StreamID)
	case *http2.GoAwayFrame:
		return errClientGoAway
	}
	return nil
}

func (c *rawConn) applySetting(s http2.Setting) error {
	if err := s.Valid(); err != nil {
		return err
	}
	switch s.ID {
	case http2.SettingInitialWindowSize:
		delta := int64(s.Val) - c.sendInitial
		c.sendInitial = int64(s.Val)
		if c.faults&IgnoreInitialWindowChange != 0 {
			return nil
		}
		for _, st := range c.streams {
			if st.send += delta; st.send > maxWindow {
				if c.faults&ResetOnWindowOverflow != 0 {
					c.reset(st.id, http2.ErrCodeFlowControl)
					continue
				}
				return http2.ConnectionError(http2.ErrCodeFlowControl)
			}
		}
	case http2.SettingMaxFrameSize:
		c.peerFrame = int64(s.Val)
	}
	return nil
}

func (c *rawConn) windowUpdate(id uint32, n int64) error {
	if id == 0 {
		if c.sendConn += n; c.sendConn > maxWindow {
			return http2.ConnectionError(http2.ErrCodeFlowControl)
		}
		return nil
	}
	if st := c.streams[id]; st != nil {
		if st.send += n; st.send > maxWindow || st.send > 1<<30 && c.faults&RejectLargeWindowUpdate != 0 {
			return http2.StreamError{StreamID: id, Code: http2.ErrCodeFlowControl}
		}
	}
	return nil
}

// request opens a stream for a HEADERS frame; responses to everything but an upload start at once.
func (c *rawConn) request(f *http2.MetaHeadersFrame) error {
	if f.StreamID%2 == 0 || f.StreamID <= c.maxID {
		return http2.ConnectionError(http2.ErrCodeProtocol)
	}
	c.maxID = f.StreamID
	st := &rawStream{id: f.StreamID, recv: rawStreamWindow, send: c.sendInitial, reqDone: f.StreamEnded()}
	if c.faults&IgnoreClientInitialWindow != 0 {
		st.send = 65535
	}
	for _, hf := range f.RegularFields() {
		if hf.Name == "te" && hf.Value != "trailers" && c.faults&AcceptBadTE == 0 {
			return http2.StreamError{StreamID: f.StreamID, Code: http2.ErrCodeProtocol}
		}
	}
	c.streams[st.id] = st
	method, path := f.PseudoValue("method"), f.PseudoValue("path")
	switch {
	case method == "POST" && path == "/upload":
		st.upload = true
		if st.reqDone {
			c.respond(st, "200", c.uploadAnswer(st))
		}
	case method == "GET" && path == "/":
		c.respond(st, "200", bytes.Repeat([]byte("wirelab raw h2 test page\n"), 80))
	case method == "GET" && path == "/1m.bin":
		c.respond(st, "200", make([]byte, 1<<20))
	default:
		c.respond(st, "404", []byte("not found\n"))
	}
	return nil
}
