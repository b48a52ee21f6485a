package h2

import (
	"fmt"
	"strings"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// frame is an owned copy of what a received frame says (the Framer reuses its buffers).
type frame struct {
	typ     http2.FrameType
	flags   http2.Flags
	stream  uint32
	length  uint32 // payload length: for DATA what flow control counts, padding included
	dataLen int    // DATA: body bytes without padding
	data    []byte // DATA: the first bodyKeep bytes
	fields  []hpack.HeaderField
	set     []http2.Setting
	incr    uint32        // WINDOW_UPDATE
	code    http2.ErrCode // RST_STREAM, GOAWAY
	last    uint32        // GOAWAY last stream
	debug   string        // GOAWAY debug data
	ping    [8]byte
	err     error // terminal read error (connection gone); the other fields are empty
}

// bodyKeep bounds how much of each response body a case keeps (enough for /upload's count).
const bodyKeep = 64

func copyFrame(f http2.Frame) frame {
	h := f.Header()
	ev := frame{typ: h.Type, flags: h.Flags, stream: h.StreamID, length: h.Length}
	switch f := f.(type) {
	case *http2.DataFrame:
		ev.dataLen = len(f.Data())
		ev.data = append([]byte(nil), f.Data()[:min(len(f.Data()), bodyKeep)]...)
	case *http2.MetaHeadersFrame:
		ev.fields = append([]hpack.HeaderField(nil), f.Fields...)
	case *http2.SettingsFrame:
		f.ForeachSetting(func(s http2.Setting) error { ev.set = append(ev.set, s); return nil })
	case *http2.WindowUpdateFrame:
		ev.incr = f.Increment
	case *http2.RSTStreamFrame:
		ev.code = f.ErrCode
	case *http2.GoAwayFrame:
		ev.code, ev.last, ev.debug = f.ErrCode, f.LastStreamID, string(f.DebugData())
	case *http2.PingFrame:
		ev.ping = f.Data
	}
	return ev
}

func (f *frame) endStream() bool {
	return (f.typ == http2.FrameData || f.typ == http2.FrameHeaders) && f.flags.Has(http2.FlagDataEndStream)
}

// status is a HEADERS frame's :status, or "".
func (f *frame) status() string {
	for _, hf := range f.fields {
		if hf.Name == ":status" {
			return hf.Value
		}
	}
	return ""
}

// describe renders the frame for the log: the line and, for DATA/WINDOW_UPDATE without flags,
// the key runs collapse on plus the byte count.
func (f *frame) describe(dir string) (text, key string, n int64) {
	s := fmt.Sprintf("%s %s", dir, f.typ)
	if f.stream != 0 || f.typ == http2.FrameWindowUpdate {
		s += fmt.Sprintf(" s=%d", f.stream)
	}
	switch f.typ {
	case http2.FrameData:
		text = fmt.Sprintf("%s len=%d", s, f.length)
		if f.flags.Has(http2.FlagDataPadded) {
			text += fmt.Sprintf(" (data %d + padding)", f.dataLen)
		}
		if f.endStream() {
			return text + " END_STREAM", "", 0
		}
		if f.flags.Has(http2.FlagDataPadded) {
			return text, "", 0
		}
		return text, s, int64(f.length)
	case http2.FrameWindowUpdate:
		return fmt.Sprintf("%s +%d", s, f.incr), s, int64(f.incr)
	case http2.FrameHeaders:
		var kv []string
		for _, hf := range f.fields {
			if strings.HasPrefix(hf.Name, ":") || hf.Name == "te" || hf.Name == "content-length" {
				kv = append(kv, hf.Name+"="+hf.Value)
			}
		}
		s += " " + strings.Join(kv, " ")
		if f.endStream() {
			s += " END_STREAM"
		}
	case http2.FrameSettings:
		if f.flags.Has(http2.FlagSettingsAck) {
			return s + " ACK", "", 0
		}
		for _, st := range f.set {
			s += fmt.Sprintf(" %s=%d", st.ID, st.Val)
		}
	case http2.FrameRSTStream:
		s += " " + f.code.String()
	case http2.FrameGoAway:
		s += fmt.Sprintf(" last=%d %s", f.last, f.code)
		if f.debug != "" {
			s += fmt.Sprintf(" %q", truncate(f.debug, 80))
		}
	case http2.FramePing:
		if f.flags.Has(http2.FlagPingAck) {
			s += " ACK"
		}
	}
	return s, "", 0
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
