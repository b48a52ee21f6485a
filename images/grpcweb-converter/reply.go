package main

import (
	"net/http"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// reply is the converted response being written to the client.
type reply interface {
	// header sends the response headers with metadata md (no status fields) and flushes.
	header(md grpcweb.Metadata)
	// message sends one frame and flushes it at once; an error means the client is gone.
	message(f grpcweb.Frame) error
	// finish sends the status and trailing metadata: as trailers after a header, or as a
	// trailers-only response (status in the headers, no body) if no header was sent.
	finish(md grpcweb.Metadata)
	// result is the outcome for the event log.
	result() outcome
	// started reports whether the response headers are out.
	started() bool
}

// outcome is what a reply reports for the event log.
type outcome struct {
	code     grpcweb.Code
	message  string
	bytesOut int64 // message payload bytes sent to the client
}

// record notes the status in md (UNKNOWN if md has none, which replies never send).
func (o *outcome) record(md grpcweb.Metadata) {
	o.code = grpcweb.Unknown
	if v, ok := md.Get("grpc-status"); ok {
		if c, ok := grpcweb.ParseCode(v); ok {
			o.code = c
		}
	}
	v, _ := md.Get("grpc-message")
	o.message = grpcweb.DecodeMessage(v)
}

// emptyTrailerFrame is the trailer frame with no fields that misbehaving converters append.
var emptyTrailerFrameBytes = []byte{grpcweb.FlagTrailer, 0, 0, 0, 0}

// endFirst sends the final status only after the request side ended (stream.endRequest), so that
// an HTTP/1.1 answer whose headers are not out yet announces a connection about to be dropped: a
// client that finished sending meanwhile, such as the edge's Transport, would otherwise put its
// next call on it and fail with EOF (Go does not retry a POST). Once the headers are out nothing
// can be announced: the status goes first and the request side ends after it.
type endFirst struct {
	reply
	s *stream
	w http.ResponseWriter
	r *http.Request
}

func (e endFirst) finish(md grpcweb.Metadata) {
	if e.r.ProtoMajor == 1 && e.reply.started() {
		// Too late to announce a drop, which the client would learn only from the close after a
		// response that looked complete: send the status at once, then give the body's end
		// bodyEndWait to arrive (stream.close drops the connection if it does not).
		e.reply.finish(md)
		e.s.endGrace = bodyEndWait
		e.s.endRequest(e.w)
		return
	}
	if !e.s.endRequest(e.w) && e.r.ProtoMajor == 1 {
		e.w.Header().Set("Connection", "close") // no effect once the headers are out
	}
	e.reply.finish(md)
}
