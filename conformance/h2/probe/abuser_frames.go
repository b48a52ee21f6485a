package probe

import "golang.org/x/net/http2"

// One method per frame type the probes send, each counted against the bound.

func (a *abuser) headers(id uint32, block []byte, endStream, endHeaders bool) error {
	return a.send(func(fr *http2.Framer) error {
		return fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block, EndStream: endStream, EndHeaders: endHeaders})
	})
}

func (a *abuser) continuation(id uint32, fragment []byte) error {
	return a.send(func(fr *http2.Framer) error { return fr.WriteContinuation(id, false, fragment) })
}

func (a *abuser) data(id uint32, endStream bool, p []byte) error {
	return a.send(func(fr *http2.Framer) error { return fr.WriteData(id, endStream, p) })
}

func (a *abuser) rstStream(id uint32, code http2.ErrCode) error {
	return a.send(func(fr *http2.Framer) error { return fr.WriteRSTStream(id, code) })
}

func (a *abuser) windowUpdate(id, increment uint32) error {
	return a.send(func(fr *http2.Framer) error { return fr.WriteWindowUpdate(id, increment) })
}

func (a *abuser) ping(data [8]byte) error {
	return a.send(func(fr *http2.Framer) error { return fr.WritePing(false, data) })
}

func (a *abuser) settings(s ...http2.Setting) error {
	return a.send(func(fr *http2.Framer) error { return fr.WriteSettings(s...) })
}

// request is the header block of a bodyless request for path on this connection's authority.
func (a *abuser) request(method, path string, extra ...string) []byte {
	return requestBlock(method, a.authority, path, extra...)
}
