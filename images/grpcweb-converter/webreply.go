package main

import (
	"io"
	"net/http"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// webReply writes a gRPC-web response over HTTP/1.1 (origin mode): messages as frames, the status
// as a final 0x80 trailer frame with lowercase names, or trailers-only (status in the headers,
// empty body). In text mode every frame is its own padded base64 chunk.
type webReply struct {
	w          http.ResponseWriter
	rc         *http.ResponseController
	ct         contentType
	body       io.Writer
	misbehave  misbehaviour
	sentHeader bool
	out        outcome
	buf        []byte
}

func newWebReply(w http.ResponseWriter, ct contentType, m misbehaviour) *webReply {
	r := &webReply{w: w, rc: http.NewResponseController(w), ct: ct, body: w, misbehave: m}
	if ct.family == familyWebText {
		r.body = grpcweb.NewTextWriter(w)
	}
	return r
}

// setFields adds md to the response headers under lowercase names (net/http writes map keys as
// they are on HTTP/1.1).
func (r *webReply) setFields(md grpcweb.Metadata) {
	h := r.w.Header()
	for _, f := range md {
		h[f.Name] = append(h[f.Name], f.Value)
	}
	h.Set("Content-Type", r.ct.String())
}

func (r *webReply) header(md grpcweb.Metadata) {
	r.setFields(md)
	r.w.WriteHeader(http.StatusOK)
	_ = r.rc.Flush()
	r.sentHeader = true
}

// writeFrame writes one frame with a single Write (one base64 chunk in text mode) and flushes.
func (r *webReply) writeFrame(flags byte, payload []byte) error {
	r.buf = grpcweb.AppendFrame(r.buf[:0], flags, payload)
	if _, err := r.body.Write(r.buf); err != nil {
		return err
	}
	return r.rc.Flush()
}

func (r *webReply) message(f grpcweb.Frame) error {
	if !r.sentHeader {
		r.header(nil)
	}
	if err := r.writeFrame(f.Flags, f.Payload); err != nil {
		return err
	}
	r.out.bytesOut += int64(len(f.Payload))
	return nil
}

func (r *webReply) finish(md grpcweb.Metadata) {
	r.out.record(md)
	canonical := false
	if r.misbehave == canonicalErrorTrailers {
		md, canonical = canonicalised(md)
	}
	if r.sentHeader {
		block := grpcweb.AppendTrailers(nil, md)
		if canonical {
			block = appendTrailersAsNamed(nil, md)
		}
		_ = r.writeFrame(grpcweb.FlagTrailer, block)
		return
	}
	r.setFields(md) // trailers-only
	r.w.WriteHeader(http.StatusOK)
	if r.misbehave == emptyTrailerFrame {
		_, _ = r.body.Write(emptyTrailerFrameBytes)
	}
}

func (r *webReply) result() outcome { return r.out }

func (r *webReply) started() bool { return r.sentHeader }
