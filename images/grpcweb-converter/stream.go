package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// stream ties one converted call together: the upstream context (the client's context plus its
// grpc-timeout), the request-body pump and the first error the converter found on the request
// side, which wins over whatever the cancelled upstream exchange reports afterwards.
type stream struct {
	parent   context.Context
	ctx      context.Context
	cancel   context.CancelFunc
	timeout  bool          // the client sent grpc-timeout
	pumpDone chan struct{} // nil until the pump starts
	bodyEOF  atomic.Bool   // the pump read the request body to its end
	bytesIn  atomic.Int64  // request message bytes read from the client

	mu     sync.Mutex
	failed *rpcError
}

// newStream derives the upstream context from r. A malformed grpc-timeout is refused with
// INTERNAL, as grpc-go servers do.
func newStream(r *http.Request) (*stream, *rpcError) {
	s := &stream{parent: r.Context()}
	v := r.Header.Get("Grpc-Timeout")
	if v == "" {
		s.ctx, s.cancel = context.WithCancel(s.parent)
		return s, nil
	}
	d, err := grpcweb.ParseTimeout(v)
	if err != nil {
		return nil, rpcErrorf(grpcweb.Internal, "malformed grpc-timeout %q", v)
	}
	s.ctx, s.cancel = context.WithTimeout(s.parent, d)
	s.timeout = true
	return s, nil
}

// fail records the request side's error and cancels the upstream exchange.
func (s *stream) fail(e *rpcError) {
	s.mu.Lock()
	if s.failed == nil {
		s.failed = e
	}
	s.mu.Unlock()
	s.cancel()
}

// upstreamError is the status for an error from the upstream exchange (sending the request or
// reading the response).
func (s *stream) upstreamError(err error, what string) *rpcError {
	s.mu.Lock()
	failed := s.failed
	s.mu.Unlock()
	switch {
	case failed != nil:
		return failed
	case s.parent.Err() != nil:
		return rpcErrorf(grpcweb.Canceled, "client cancelled the call")
	case errors.Is(s.ctx.Err(), context.DeadlineExceeded):
		return rpcErrorf(grpcweb.DeadlineExceeded, "grpc-timeout expired in the converter")
	}
	if e := frameError(err, what); e != nil {
		return e
	}
	return rpcErrorf(grpcweb.CodeForUpstreamError(err), "%s: %v", what, err)
}

// close ends the call: it cancels the upstream exchange, stops the pump writing to the upstream
// body and, if the client is still sending, unblocks the pump's read with a past read deadline,
// so that the request body is never read after ServeHTTP returns.
func (s *stream) close(w http.ResponseWriter, r *http.Request, upstreamBody *io.PipeReader) {
	s.cancel()
	upstreamBody.Close()
	if s.pumpDone == nil {
		return
	}
	rc := http.NewResponseController(w)
	select {
	case <-s.pumpDone:
	default:
		_ = rc.SetReadDeadline(time.Now().Add(-time.Second))
		<-s.pumpDone
	}
	if s.bodyEOF.Load() {
		return
	}
	if r.ProtoMajor == 1 {
		dropConnection(w, r) // the rest of the body would be parsed as the next request
		return
	}
	r.Body.Close() // HTTP/2: resets the client's half of the stream
}
