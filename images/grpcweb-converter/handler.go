package main

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// errUpstreamClosed: the upstream closed the HTTP/1.1 connection before it answered.
var errUpstreamClosed = errors.New("closed the connection without answering")

// converter is the http.Handler of one mode; doc.go describes the data flow.
type converter struct {
	cfg config
	rt  http.RoundTripper
	log *eventLog
}

func newConverter(cfg config, log *eventLog) (*converter, error) {
	rt, err := newUpstreamTransport(cfg)
	if err != nil {
		return nil, err
	}
	return &converter{cfg: cfg, rt: rt, log: log}, nil
}

// accepts reports whether a request of content type in is for this mode.
func (c *converter) accepts(in contentType) bool {
	if c.cfg.mode == modeEdge {
		return in.family == familyGRPC
	}
	return in.family == familyWeb || in.family == familyWebText
}

func (c *converter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ev := event{Mode: c.cfg.mode, Method: r.URL.Path}
	in, ok := parseContentType(r.Header.Get("Content-Type"))
	if r.Method != http.MethodPost || !ok || !c.accepts(in) {
		ev.HTTPStatus = http.StatusUnsupportedMediaType
		if r.Method != http.MethodPost {
			ev.HTTPStatus = http.StatusMethodNotAllowed
		}
		http.Error(w, "wirelab grpcweb-converter: "+c.cfg.mode+" mode takes POST "+c.wants(), ev.HTTPStatus)
		c.log.write(ev, start)
		return
	}
	var rep reply
	if c.cfg.mode == modeEdge {
		rep = newGRPCReply(w, in, c.cfg.misbehave)
	} else {
		rep = newWebReply(w, in, c.cfg.misbehave)
	}
	var s *stream
	defer func() {
		res := rep.result()
		ev.Status, ev.Code, ev.Message, ev.BytesOut = int(res.code), res.code.String(), res.message, res.bytesOut
		if s != nil {
			ev.BytesIn = s.bytesIn.Load()
			ev.ConnDropped = r.ProtoMajor == 1 && !s.endRequest(w) // ended already: reads the decision
		}
		c.log.write(ev, start)
	}()

	// A request this mode already converted has looped back: converting it again would never end.
	if convertedBy(r.Header, c.cfg.mode) {
		rep.finish(rpcErrorf(grpcweb.Internal, "request already converted by a wirelab %s converter (%s: %v); refusing to convert twice",
			c.cfg.mode, markerHeader, markerValues(r.Header)).metadata())
		return
	}
	s, rerr := newStream(r, c.cfg.misbehave)
	if rerr != nil {
		rep.finish(rerr.metadata())
		return
	}
	if c.cfg.mode == modeOrigin {
		// Read request messages after the response started (ping-pong over HTTP/1.1). Only now:
		// refusals above leave the unread body to net/http's usual handling.
		_ = http.NewResponseController(w).EnableFullDuplex()
	}
	var src io.Reader = r.Body
	if in.family == familyWebText {
		src = grpcweb.NewTextDecoder(r.Body)
	}
	body := s.startPump(src, c.upstreamContentType(in).family == familyWebText, c.cfg.maxMessageBytes)
	defer s.close(w, r)
	rep = endFirst{rep, s, w, r}

	req, err := c.upstreamRequest(s, r, in, body)
	if err != nil {
		rep.finish(rpcErrorf(grpcweb.Internal, "building the upstream request: %v", err).metadata())
		return
	}
	var broke atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) {
		watchBreak(i.Conn, func() { broke.Store(true); s.upstreamBody.CloseWithError(errUpstreamStopped) })
	}}))
	resp, err := c.rt.RoundTrip(req)
	if err != nil {
		if broke.Load() && s.parent.Err() == nil {
			err = errUpstreamClosed
		}
		rep.finish(s.upstreamError(err, "upstream "+c.cfg.upstream.String()).metadata())
		return
	}
	defer resp.Body.Close()
	relay(s, resp, c.cfg.mode == modeEdge, rep, c.cfg.maxMessageBytes)
}

// wants names the content types this mode takes, for the refusal message.
func (c *converter) wants() string {
	if c.cfg.mode == modeEdge {
		return "application/grpc over HTTP/2"
	}
	return "application/grpc-web or application/grpc-web-text over HTTP/1.1"
}
