package main

import (
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// relay converts the upstream response into rep, one message at a time. webUpstream says which
// protocol the upstream speaks: gRPC-web (edge mode: trailers are the body's last frame) or gRPC
// (origin mode: trailers are HTTP/2 trailers).
func relay(s *stream, resp *http.Response, webUpstream bool, rep reply, limit int) {
	ct, isGRPC := parseContentType(resp.Header.Get("Content-Type"))
	isGRPC = isGRPC && (ct.family == familyGRPC) != webUpstream
	_, statusInHeader := resp.Header["Grpc-Status"]
	if !statusInHeader && (resp.StatusCode != http.StatusOK || !isGRPC) {
		rep.finish(notGRPC(resp, webUpstream).metadata())
		return
	}
	var body io.Reader = resp.Body
	if ct.family == familyWebText {
		body = grpcweb.NewTextDecoder(body)
	}
	frames := grpcweb.NewFrameReader(body, limit)
	var first grpcweb.Frame
	var err error
	if statusInHeader {
		// Trailers-only upstream (status header, empty body) stays trailers-only. With a body it
		// is not trailers-only: the body's own trailers decide.
		if first, err = frames.Next(); err == io.EOF {
			rep.finish(withStatus(forwardable(resp.Header, nil)))
			return
		}
		rep.header(forwardable(resp.Header, isStatusField))
	} else {
		rep.header(forwardable(resp.Header, isStatusField)) // at once: clients may wait on headers
		first, err = frames.Next()
	}
	for f := first; ; f, err = frames.Next() {
		switch {
		case err == io.EOF && webUpstream:
			rep.finish(rpcErrorf(grpcweb.Internal, "upstream gRPC-web body ended without a trailer frame").metadata())
			return
		case err == io.EOF:
			rep.finish(withStatus(forwardable(resp.Trailer, nil)))
			return
		case err != nil:
			rep.finish(s.upstreamError(err, "upstream response").metadata())
			return
		case f.IsTrailer() && !webUpstream:
			rep.finish(rpcErrorf(grpcweb.Internal, "upstream gRPC body has a frame with the trailer flag (0x%02x)", f.Flags).metadata())
			return
		case f.IsTrailer():
			drainEnd(s, resp.Body, bodyEndGrace)
			rep.finish(trailerFrame(f))
			return
		}
		if err := rep.message(f); err != nil { // the client is gone; closing the stream cancels upstream
			rep.finish(rpcErrorf(grpcweb.Canceled, "writing to the client: %v", err).metadata())
			return
		}
	}
}

// trailerFrame is the status and trailing metadata of a gRPC-web trailer frame.
func trailerFrame(f grpcweb.Frame) grpcweb.Metadata {
	if f.IsCompressed() {
		return rpcErrorf(grpcweb.Internal, "upstream sent compressed trailers (flag 0x81), which are not supported").metadata()
	}
	md, err := grpcweb.ParseTrailers(f.Payload)
	if err != nil {
		return rpcErrorf(grpcweb.Internal, "upstream trailer frame: %v", err).metadata()
	}
	return withStatus(md)
}

// withStatus orders md as grpc-status, grpc-message, grpc-status-details-bin, then the rest.
// Trailers without grpc-status become UNKNOWN, which is what a client would report (and what the
// empty-trailer-frame bug turns real codes into).
func withStatus(md grpcweb.Metadata) grpcweb.Metadata {
	var out grpcweb.Metadata
	if _, ok := md.Get("grpc-status"); !ok {
		out = rpcErrorf(grpcweb.Unknown, "upstream trailers carry no grpc-status").metadata()
	} else {
		for _, name := range statusFields {
			for _, v := range md.Values(name) {
				out = append(out, grpcweb.Field{Name: name, Value: v})
			}
		}
	}
	for _, f := range md {
		if !isStatusField(f.Name) && !notForwarded[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// notGRPC maps an answer that is not gRPC (an HTML error page, a plain 404) to a status per
// grpc/grpc doc/http-grpc-status-mapping.md, naming what the upstream sent.
func notGRPC(resp *http.Response, webUpstream bool) *rpcError {
	want := "gRPC"
	if webUpstream {
		want = "gRPC-web"
	}
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = "no content-type"
	}
	return rpcErrorf(grpcweb.CodeForHTTPStatus(resp.StatusCode), "upstream answered HTTP %d with %s, not %s", resp.StatusCode, ct, want)
}

// drainHook, if set, runs when drainEnd begins, before its wait. Tests use it to let the upstream
// send the end of its body only then.
var drainHook atomic.Pointer[func()]

// drainEnd reads what follows an upstream gRPC-web body's trailer frame (normally just the
// chunked terminator, already on its way) before the call's status ends the exchange: Go's
// transport keeps a connection for the next call only if the response body was read to its end.
// Without it every call paid a new TCP handshake over the HTTP/1.1 hop. An upstream that keeps
// the body open is given up after wait (the exchange is cancelled, the connection closed).
func drainEnd(s *stream, body io.Reader, wait time.Duration) {
	if h := drainHook.Load(); h != nil {
		(*h)()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(io.Discard, io.LimitReader(body, 64<<10))
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		s.cancel()
		<-done
	}
}
