package main

import (
	"bytes"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"

	"github.com/wirelab/wirelab/conformance/h2/h2test"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// misbehaviour is how a test's raw HTTP/2 server departs from a correct one.
type misbehaviour struct {
	settings       []http2.Setting // its SETTINGS (none: the RFC defaults)
	openConnWindow uint32          // connection WINDOW_UPDATE sent right after SETTINGS
	noCredit       bool            // never return window credit for received DATA
	resetOnData    http2.ErrCode   // answer the first DATA frame with RST_STREAM (0: don't)
	goAwayOnData   http2.ErrCode   // answer the first DATA frame with GOAWAY (0: don't)
	answer         string          // the body of the 200 answer ("": the true count)
	// settingsOnHeaders is a SETTINGS frame sent when the request HEADERS arrive, so its
	// INITIAL_WINDOW_SIZE changes the window of an open stream.
	settingsOnHeaders []http2.Setting
}

// fakeServer is a raw-Framer HTTP/2 server that counts what the client sends and checks it against
// the windows it has itself advertised.
type fakeServer struct {
	addr, caFile string
	b            misbehaviour

	mu       sync.Mutex
	received int64 // DATA payload bytes of the last connection
	overrun  bool  // the client sent beyond a window this server had opened
}

func startFakeServer(t *testing.T, b misbehaviour) *fakeServer {
	t.Helper()
	ln := h2test.ListenTLS(t)
	s := &fakeServer{addr: ln.Addr().String(), caFile: h2test.CAFile(t), b: b}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { defer conn.Close(); s.serve(conn) })
		}
	})
	return s
}

func (s *fakeServer) stats() (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.received, s.overrun
}

// serve runs one connection until the client goes away; every write happens on this goroutine.
func (s *fakeServer) serve(conn net.Conn) {
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(conn, preface); err != nil || string(preface) != http2.ClientPreface {
		return
	}
	fr := http2.NewFramer(conn, conn)
	fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	// The windows this server has opened to the client, to catch an overrun.
	streamWindow, connWindow := int64(defaultWindow), int64(defaultWindow)
	for _, st := range s.b.settings {
		if st.ID == http2.SettingInitialWindowSize {
			streamWindow = int64(st.Val)
		}
	}
	fr.WriteSettings(s.b.settings...)
	if s.b.openConnWindow > 0 {
		fr.WriteWindowUpdate(0, s.b.openConnWindow)
		connWindow += int64(s.b.openConnWindow)
	}
	s.mu.Lock()
	s.received = 0
	s.mu.Unlock()
	var received int64
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				fr.WriteSettingsAck()
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				fr.WritePing(true, f.Data)
			}
		case *http2.MetaHeadersFrame:
			if len(s.b.settingsOnHeaders) > 0 {
				fr.WriteSettings(s.b.settingsOnHeaders...)
				for _, st := range s.b.settingsOnHeaders {
					if st.ID == http2.SettingInitialWindowSize {
						streamWindow = int64(st.Val) // only raised in these tests: in force at once
					}
				}
			}
		case *http2.DataFrame:
			n := int64(f.Header().Length)
			received += int64(len(f.Data()))
			streamWindow -= n
			connWindow -= n
			s.mu.Lock()
			s.received = received
			s.overrun = s.overrun || streamWindow < 0 || connWindow < 0
			s.mu.Unlock()
			if s.b.resetOnData != 0 {
				fr.WriteRSTStream(f.StreamID, s.b.resetOnData)
				continue
			}
			if s.b.goAwayOnData != 0 {
				fr.WriteGoAway(0, s.b.goAwayOnData, []byte("test"))
				return
			}
			if !s.b.noCredit && n > 0 {
				fr.WriteWindowUpdate(0, uint32(n))
				fr.WriteWindowUpdate(f.StreamID, uint32(n))
				streamWindow += n
				connWindow += n
			}
			if f.StreamEnded() {
				s.respond(fr, f.StreamID, received)
			}
		}
	}
}

func (s *fakeServer) respond(fr *http2.Framer, stream uint32, received int64) {
	body := s.b.answer
	if body == "" {
		body = strconv.FormatInt(received, 10)
	}
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
	enc.WriteField(hpack.HeaderField{Name: "content-type", Value: "text/plain"})
	fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: block.Bytes(), EndHeaders: true})
	fr.WriteData(stream, true, []byte(body))
}
