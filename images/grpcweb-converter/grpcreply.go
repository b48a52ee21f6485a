package main

import (
	"net/http"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// grpcReply writes a gRPC response over HTTP/2 (edge mode): messages as DATA, the status as real
// HTTP/2 trailers, or a trailers-only HEADERS frame with END_STREAM.
type grpcReply struct {
	w          http.ResponseWriter
	rc         *http.ResponseController
	ct         contentType
	misbehave  misbehaviour
	sentHeader bool
	out        outcome
	buf        []byte
}

func newGRPCReply(w http.ResponseWriter, ct contentType, m misbehaviour) *grpcReply {
	return &grpcReply{w: w, rc: http.NewResponseController(w), ct: ct, misbehave: m}
}

func (g *grpcReply) header(md grpcweb.Metadata) {
	h := g.w.Header()
	for _, f := range md {
		h.Add(f.Name, f.Value)
	}
	h.Set("Content-Type", g.ct.String())
	g.w.WriteHeader(http.StatusOK)
	_ = g.rc.Flush() // headers go out before the first message: clients may wait on them
	g.sentHeader = true
}

func (g *grpcReply) message(f grpcweb.Frame) error {
	if !g.sentHeader {
		g.header(nil)
	}
	g.buf = grpcweb.AppendFrame(g.buf[:0], f.Flags, f.Payload)
	if _, err := g.w.Write(g.buf); err != nil {
		return err
	}
	g.out.bytesOut += int64(len(f.Payload))
	return g.rc.Flush()
}

func (g *grpcReply) finish(md grpcweb.Metadata) {
	g.out.record(md)
	h := g.w.Header()
	if g.sentHeader {
		for _, f := range md {
			h.Add(http.TrailerPrefix+f.Name, f.Value) // sent as trailers when the handler returns
		}
		return
	}
	// Trailers-only: net/http sends one HEADERS frame with END_STREAM when the handler returns
	// without body, flush or trailers. A nil Content-Length keeps it from adding "0".
	for _, f := range md {
		h.Add(f.Name, f.Value)
	}
	h.Set("Content-Type", g.ct.String())
	h["Content-Length"] = nil
	g.w.WriteHeader(http.StatusOK)
	if g.misbehave == emptyTrailerFrame {
		_, _ = g.w.Write(emptyTrailerFrameBytes)
	}
}

func (g *grpcReply) result() outcome { return g.out }

func (g *grpcReply) started() bool { return g.sentHeader }
