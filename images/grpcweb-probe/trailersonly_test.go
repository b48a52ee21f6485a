package main

import (
	"bytes"
	"net"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// The trailers-only play is what PROTOCOL-HTTP2.md calls Trailers-Only: the answer is one
// HEADERS frame with END_STREAM carrying the status, no DATA and no second HEADERS.
func TestTrailersOnlyIsOneHeadersFrame(t *testing.T) {
	conn, err := net.Dial("tcp", playPart(t, roleServer, "trailers_only_status_kept"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Write([]byte(http2.ClientPreface)); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(conn, conn)
	var hdr bytes.Buffer
	enc := hpack.NewEncoder(&hdr)
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":authority", "probe"},
		{":path", unaryPath}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
		_ = enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	if err := fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	_ = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hdr.Bytes(), EndHeaders: true})
	_ = fr.WriteData(1, true, []byte{0, 0, 0, 0, 0}) // an empty SimpleRequest
	fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	var frames []http2.Frame
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("after %d frames of stream 1: %v", len(frames), err)
		}
		if f.Header().StreamID != 1 {
			if s, ok := f.(*http2.SettingsFrame); ok && !s.IsAck() {
				_ = fr.WriteSettingsAck()
			}
			continue
		}
		frames = append(frames, f)
		if f.Header().Flags.Has(http2.FlagDataEndStream) || f.Header().Flags.Has(http2.FlagHeadersEndStream) {
			break
		}
	}
	mh, ok := frames[0].(*http2.MetaHeadersFrame)
	if len(frames) != 1 || !ok {
		t.Fatalf("stream 1: %d frames, first %v; want one HEADERS with END_STREAM", len(frames), frames[0].Header())
	}
	want := map[string]string{":status": "200", "content-type": "application/grpc", "grpc-status": "7", "grpc-message": permissionDeniedMessage}
	for name, v := range want {
		if got := mh.PseudoValue(name[1:]); name[0] == ':' && got != v {
			t.Errorf("%s: %q, want %q", name, got, v)
		}
		if got := headerValue(mh, name); name[0] != ':' && got != v {
			t.Errorf("%s: %q, want %q", name, got, v)
		}
	}
	if headerValue(mh, "content-length") != "" {
		t.Errorf("content-length %q: want none", headerValue(mh, "content-length"))
	}
}

func headerValue(mh *http2.MetaHeadersFrame, name string) string {
	for _, f := range mh.RegularFields() {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}
