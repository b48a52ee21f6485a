package h2

import (
	"fmt"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// write runs one Framer write under the write lock and logs the frame (as sent).
func (c *conn) write(logged *frame, fn func() error) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := fn(); err != nil {
		return err
	}
	c.logFrame(">", logged)
	return nil
}

func (c *conn) logFrame(dir string, f *frame) {
	text, key, n := f.describe(dir)
	c.log.add(text, key, n)
}

func (c *conn) flush() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.bw.Flush()
}

func (c *conn) writeSettings(s ...http2.Setting) error {
	c.settingsSent++
	for _, st := range s {
		if st.ID == http2.SettingInitialWindowSize {
			c.own.initial = int64(st.Val)
		}
	}
	return c.write(&frame{typ: http2.FrameSettings, set: s}, func() error { return c.wfr.WriteSettings(s...) })
}

func (c *conn) writeWindowUpdate(id, n uint32) error {
	c.own.credit[id] += int64(n)
	return c.write(&frame{typ: http2.FrameWindowUpdate, stream: id, incr: n}, func() error { return c.wfr.WriteWindowUpdate(id, n) })
}

func (c *conn) writeRST(id uint32, code http2.ErrCode) error {
	if s := c.peer.streams[id]; s != nil {
		s.clientDone = true
	}
	return c.write(&frame{typ: http2.FrameRSTStream, stream: id, code: code}, func() error { return c.wfr.WriteRSTStream(id, code) })
}

func (c *conn) writeGoAway(code http2.ErrCode) error {
	return c.write(&frame{typ: http2.FrameGoAway, code: code}, func() error { return c.wfr.WriteGoAway(0, code, nil) })
}

// open starts a request on the next client stream and returns its id.
func (c *conn) open(method, path string, endStream bool, extra ...hpack.HeaderField) (uint32, error) {
	id := c.nextID
	c.nextID += 2
	authority := c.target.Addr
	if c.target.TLS != nil && c.target.TLS.ServerName != "" {
		authority = c.target.TLS.ServerName
	}
	fields := append([]hpack.HeaderField{
		{Name: ":method", Value: method},
		{Name: ":scheme", Value: "https"},
		{Name: ":authority", Value: authority},
		{Name: ":path", Value: path},
	}, extra...)
	c.peer.openStream(id)
	c.peer.streams[id].clientDone = endStream
	logged := &frame{typ: http2.FrameHeaders, stream: id, fields: fields}
	if endStream {
		logged.flags = http2.FlagHeadersEndStream
	}
	return id, c.write(logged, func() error {
		c.hbuf.Reset()
		for _, f := range fields {
			if err := c.henc.WriteField(f); err != nil {
				return err
			}
		}
		return c.wfr.WriteHeaders(http2.HeadersFrameParam{
			StreamID: id, BlockFragment: c.hbuf.Bytes(), EndStream: endStream, EndHeaders: true,
		})
	})
}

// writeData sends one DATA frame and charges it to the client's view of the server's windows.
// pad < 0 sends it unpadded; 0..255 adds the Pad Length field and that many padding octets.
func (c *conn) writeData(id uint32, end bool, data []byte, pad int) error {
	if pad > 255 {
		return fmt.Errorf("padding %d > 255", pad)
	}
	length := len(data)
	logged := &frame{typ: http2.FrameData, stream: id, dataLen: len(data)}
	if pad >= 0 {
		length += 1 + pad
		logged.flags |= http2.FlagDataPadded
	}
	if end {
		logged.flags |= http2.FlagDataEndStream
	}
	logged.length = uint32(length)
	c.peer.charge(id, int64(length), end)
	return c.write(logged, func() error {
		if pad < 0 {
			return c.wfr.WriteData(id, end, data)
		}
		return c.wfr.WriteDataPadded(id, end, data, make([]byte, pad))
	})
}
