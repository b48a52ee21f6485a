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
	parent       context.Context
	ctx          context.Context
	cancel       context.CancelFunc
	timeout      bool           // the client sent grpc-timeout
	pumpDone     chan struct{}  // closed when the pump ends
	upstreamBody *io.PipeReader // the pump's output
	bodyEOF      atomic.Bool    // the pump read the request body to its end
	bytesIn      atomic.Int64   // request message bytes read from the client

	mu     sync.Mutex
	failed *rpcError

	http1    bool // the client's request came over HTTP/1.x: its body shares the connection
	cutAsEnd bool // TEST-ONLY misbehaviour cutBodyAsEnd
	endOnce  sync.Once
	reusable bool          // the client's connection can carry another request (endRequest)
	endGrace time.Duration // how long endRequest waits for a request body's end (HTTP/1.x)
}

// bodyEndGrace is how long an HTTP/1.x call whose response headers are not out yet (a
// trailers-only answer) waits for the request body's end before it gives the connection up, and
// says so with Connection: close. An upstream often answers (an error, say) before the pump has
// read a body end the client already sent; a client really still sending waits this much longer
// for the status.
const bodyEndGrace = 200 * time.Millisecond

// bodyEndWait replaces bodyEndGrace once the response headers are out. A drop can then be
// signalled only by the close, after a response that looked complete, and the client's next POST
// on the connection fails ("http: server closed idle connection"); so the status is sent first
// and the body's end waited for much longer. The wait delays only the response's end, which a
// client still sending its body does not need yet.
const bodyEndWait = 10 * time.Second

// newStream derives the upstream context from r. A malformed grpc-timeout is refused with
// INTERNAL, as grpc-go servers do. m is the converter's misbehaviour (cutBodyAsEnd detaches the
// upstream call from the client).
func newStream(r *http.Request, m misbehaviour) (*stream, *rpcError) {
	s := &stream{parent: r.Context(), cutAsEnd: m == cutBodyAsEnd}
	if s.cutAsEnd {
		s.parent = context.WithoutCancel(s.parent)
	}
	if r.ProtoMajor == 1 {
		s.http1, s.endGrace = true, bodyEndGrace
	}
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

// endRequest ends the request side once the call's status is decided, before it is sent: it
// cancels the upstream exchange and stops the pump. It reports whether the client's connection
// can carry another request, which it can only if the pump read the body to its end by itself.
//
// A pump still reading is unblocked with a past read deadline (a body is never read after its
// handler returned), but not once it recorded the body's end: from then on net/http reads the
// connection in the background and takes a timeout there for the client going away, cancelling
// the context of every later request on the connection. As the pump may have read the end
// without recording it yet, an interrupted connection is not reused.
func (s *stream) endRequest(w http.ResponseWriter) bool {
	s.endOnce.Do(func() {
		s.cancel()
		s.upstreamBody.Close() // unblocks a pump write
		interrupted := false
		if !s.bodyEOF.Load() && !s.pumpEnds(0) && !s.waitBodyEnd() {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(-time.Second))
			interrupted = true
		}
		<-s.pumpDone
		s.reusable = s.bodyEOF.Load() && !interrupted
	})
	return s.reusable
}

// bodyEndWaitHook, if set, runs when a call's status is decided while an HTTP/1.x request body
// is still being read, before endRequest waits bodyEndGrace for its end. Tests use it to send the
// body's end at exactly that moment.
var bodyEndWaitHook atomic.Pointer[func()]

// waitBodyEnd waits up to endGrace for the pump to read the request body's end by itself.
func (s *stream) waitBodyEnd() bool {
	if s.endGrace <= 0 {
		return false
	}
	if h := bodyEndWaitHook.Load(); h != nil {
		(*h)()
	}
	return s.pumpEnds(s.endGrace)
}

// pumpEnds reports whether the pump ends within d (0: whether it has ended).
func (s *stream) pumpEnds(d time.Duration) bool {
	select {
	case <-s.pumpDone:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.pumpDone:
		return true
	case <-t.C:
		return false
	}
}

// close ends the call after its status was sent. A connection that cannot carry another request
// is dropped (HTTP/1.1: the rest of the body would be parsed as the next request); on HTTP/2 the
// client's half of the stream is reset.
func (s *stream) close(w http.ResponseWriter, r *http.Request) {
	switch {
	case s.endRequest(w):
	case r.ProtoMajor == 1:
		dropConnection(w, r)
	default:
		r.Body.Close()
	}
}
