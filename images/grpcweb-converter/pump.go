package main

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// errUpstreamStopped: the upstream transport closed the request body (the call ended upstream);
// the response, not the pump, decides the status then.
var errUpstreamStopped = errors.New("upstream stopped reading the request body")

// bodyEndHook, if set, runs in the pump between reading the end of the request body and recording
// it. Tests use it to hold the pump at the moment net/http has begun its background read of an
// HTTP/1.1 connection (it starts one when a request body hits EOF).
var bodyEndHook atomic.Pointer[func(*stream)]

// startPump copies the client's request messages in a goroutine to the upstream body it returns,
// one frame per Write so each message is flushed on its own (a chunk on HTTP/1.1, a DATA frame on
// HTTP/2, one padded base64 chunk in text mode). Memory is one message, bounded by limit.
func (s *stream) startPump(src io.Reader, text bool, limit int) io.Reader {
	pr, dst := io.Pipe()
	s.upstreamBody = pr
	var out io.Writer = dst
	if text {
		out = grpcweb.NewTextWriter(dst)
	}
	s.pumpDone = make(chan struct{})
	go func() {
		defer close(s.pumpDone)
		err := copyFrames(out, src, limit, func(n int) { s.bytesIn.Add(int64(n)) })
		switch {
		case err == nil:
			if h := bodyEndHook.Load(); h != nil {
				(*h)(s)
			}
			s.bodyEOF.Store(true) // before the upstream can see the end (endRequest relies on it)
			dst.Close()           // end of the request stream
		case errors.Is(err, errUpstreamStopped):
			// The upstream takes no more of the body (it answered, or failed). Read the client's
			// rest, discarded, so its HTTP/1.1 connection can carry the next call; endRequest
			// bounds this (bodyEndGrace, bodyEndWait).
			if s.http1 {
				if _, err := io.Copy(io.Discard, src); err == nil {
					s.bodyEOF.Store(true)
				}
			}
		default:
			e := frameError(err, "request")
			if e == nil && s.cutAsEnd { // TEST-ONLY: the bug of ignoring the copy's error
				dst.Close()
				return
			}
			if e == nil { // the client's body broke off: it reset or went away
				e = rpcErrorf(grpcweb.Canceled, "reading the request body: %v", err)
			}
			s.fail(e)
			dst.CloseWithError(e)
		}
	}()
	return pr
}

// copyFrames re-frames every message of src onto dst. Trailer frames have no place in a request.
func copyFrames(dst io.Writer, src io.Reader, limit int, count func(int)) error {
	frames := grpcweb.NewFrameReader(src, limit)
	var buf []byte
	for {
		f, err := frames.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if f.IsTrailer() {
			return rpcErrorf(grpcweb.Internal, "request: frame with the trailer flag (0x%02x) in a request body", f.Flags)
		}
		count(len(f.Payload))
		buf = grpcweb.AppendFrame(buf[:0], f.Flags, f.Payload)
		if _, err := dst.Write(buf); err != nil {
			return fmt.Errorf("%w: %v", errUpstreamStopped, err)
		}
	}
}
