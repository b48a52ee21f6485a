package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// The TestService methods the probe calls and plays.
const (
	unaryPath     = "/grpc.testing.TestService/UnaryCall"
	streamingPath = "/grpc.testing.TestService/StreamingOutputCall"
)

// rawCall is one gRPC exchange answered by hand on an HTTP/2 request, for quirks that need
// control over every header, DATA and trailer field (grpc-go's server would not misbehave).
type rawCall struct {
	w       http.ResponseWriter
	r       *http.Request
	rc      *http.ResponseController
	started bool
	buf     []byte
}

// rawHandler routes the two TestService methods to raw handlers (nil: not played); any other
// path is UNIMPLEMENTED, as a gRPC server answers it.
func rawHandler(unary, streaming func(*rawCall)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &rawCall{w: w, r: r, rc: http.NewResponseController(w)}
		switch {
		case r.URL.Path == unaryPath && unary != nil:
			unary(c)
		case r.URL.Path == streamingPath && streaming != nil:
			streaming(c)
		default:
			_, _ = io.Copy(io.Discard, r.Body)
			c.finish(codes.Unimplemented, "wirelab-probe: "+r.URL.Path+" is not played in this case")
		}
	})
}

// readBody reads the whole request body; its single message is parsed with parseMessage.
func (c *rawCall) readBody() ([]byte, error) { return io.ReadAll(c.r.Body) }

// read reads the request's one message into m.
func (c *rawCall) read(m proto.Message) error {
	body, err := c.readBody()
	if err != nil {
		return fmt.Errorf("reading the request body: %v", err)
	}
	return parseMessage(body, m)
}

// parseMessage parses a gRPC body holding exactly one uncompressed message.
func parseMessage(body []byte, m proto.Message) error {
	fr := grpcweb.NewFrameReader(bytes.NewReader(body), len(body))
	f, err := fr.Next()
	switch {
	case err == io.EOF:
		return errors.New("the request body has no message")
	case err != nil:
		return err
	case f.Flags != 0:
		return fmt.Errorf("the request message has flags 0x%02x (want 0: uncompressed, not a trailer)", f.Flags)
	}
	if _, err := fr.Next(); err != io.EOF {
		return fmt.Errorf("the request body has more than one message (%v)", err)
	}
	return proto.Unmarshal(f.Payload, m)
}

// contentType answers in the request's gRPC content type (the codec suffix is the client's).
func (c *rawCall) contentType() string {
	mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if mt == "application/grpc+proto" {
		return mt
	}
	return "application/grpc"
}

// header sends the response headers now, so that clients waiting on them see the call start.
func (c *rawCall) header() {
	if c.started {
		return
	}
	c.w.Header().Set("Content-Type", c.contentType())
	c.w.WriteHeader(http.StatusOK)
	_ = c.rc.Flush()
	c.started = true
}

// send writes one message and flushes it (unflushed, net/http would add a content-length).
func (c *rawCall) send(m proto.Message) error {
	c.header()
	payload, err := proto.Marshal(m)
	if err != nil {
		return err
	}
	c.buf = grpcweb.AppendFrame(c.buf[:0], 0, payload)
	if _, err := c.w.Write(c.buf); err != nil {
		return err
	}
	return c.rc.Flush()
}

// wait pauses the play for d; false if the client went away meanwhile.
func (c *rawCall) wait(d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-c.r.Context().Done():
		return false
	}
}

// sendLast sends the call's last message and ends it OK with trailing metadata md; a client gone
// meanwhile gets no status.
func (c *rawCall) sendLast(m proto.Message, md ...string) {
	if c.send(m) == nil {
		c.finish(codes.OK, "", md...)
	}
}

// finish ends the call with a status and trailing metadata (name, value pairs): HTTP/2 trailers
// after a header, else a trailers-only response (one HEADERS frame with END_STREAM).
func (c *rawCall) finish(code codes.Code, msg string, md ...string) {
	h := c.w.Header()
	prefix := http.TrailerPrefix
	if !c.started {
		prefix = ""
		h.Set("Content-Type", c.contentType())
		h["Content-Length"] = nil // keeps net/http from adding "0": no body, no length
	}
	h[prefix+"Grpc-Status"] = []string{strconv.Itoa(int(code))}
	if msg != "" {
		h[prefix+"Grpc-Message"] = []string{grpcweb.EncodeMessage(msg)}
	}
	for i := 0; i+1 < len(md); i += 2 {
		h.Add(prefix+md[i], md[i+1])
	}
	if !c.started {
		c.w.WriteHeader(http.StatusOK)
	}
}

// unaryAnswer is TestService.UnaryCall's answer: response_size bytes, or as many as the
// request's payload had.
func unaryAnswer(req *testpb.SimpleRequest) *testpb.SimpleResponse {
	n := int(req.GetResponseSize())
	if n == 0 {
		n = len(req.GetPayload().GetBody())
	}
	return &testpb.SimpleResponse{Payload: &testpb.Payload{Body: pattern(n)}}
}

// serveUnary answers UnaryCall properly with answer's response to the request, and trailing
// metadata md.
func serveUnary(c *rawCall, answer func(*testpb.SimpleRequest) *testpb.SimpleResponse, md ...string) {
	var req testpb.SimpleRequest
	if err := c.read(&req); err != nil {
		c.finish(codes.Internal, "wirelab-probe: "+err.Error())
		return
	}
	c.sendLast(answer(&req), md...)
}

// pattern is n recognisable bytes, so a payload cut, shifted or mangled on the way shows.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + 3)
	}
	return b
}
