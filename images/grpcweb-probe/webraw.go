package main

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// webCall is one gRPC-web exchange answered by hand over HTTP/1.1, in the content type the request
// came in (application/grpc-web[+proto] or application/grpc-web-text[+proto]).
type webCall struct {
	w       http.ResponseWriter
	r       *http.Request
	rc      *http.ResponseController
	ct      string // the request's media type, used for the answer
	text    bool   // grpc-web-text: base64 bodies
	started bool
}

// webHandler serves the origin role: gRPC-web requests go to play, anything else is refused
// with 415 as a gRPC-web origin would.
func webHandler(play func(*webCall)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if r.Method != http.MethodPost || !strings.HasPrefix(mt, "application/grpc-web") {
			http.Error(w, "wirelab-probe origin: want POST application/grpc-web[-text]", http.StatusUnsupportedMediaType)
			return
		}
		play(&webCall{w: w, r: r, rc: http.NewResponseController(w), ct: mt,
			text: strings.HasPrefix(mt, "application/grpc-web-text")})
	})
}

// read reads the request's one message into m, decoding base64 for grpc-web-text.
func (c *webCall) read(m proto.Message) error {
	var body io.Reader = c.r.Body
	if c.text {
		body = grpcweb.NewTextDecoder(body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return fmt.Errorf("reading the request body: %v", err)
	}
	return parseMessage(b, m)
}

// readRequest reads the request's one message into m; a request that cannot be read is answered
// INTERNAL, and readRequest returns false.
func (c *webCall) readRequest(m proto.Message) bool {
	if err := c.read(m); err != nil {
		c.trailersOnly(codes.Internal, "wirelab-probe: "+err.Error())
		return false
	}
	return true
}

// header sends 200 with the answer's content type and flushes.
func (c *webCall) header() {
	if c.started {
		return
	}
	c.w.Header().Set("Content-Type", c.ct)
	c.w.WriteHeader(http.StatusOK)
	_ = c.rc.Flush()
	c.started = true
}

// frame writes one frame (in text mode its own padded base64 chunk) and flushes.
func (c *webCall) frame(flags byte, payload []byte) error {
	c.header()
	b := grpcweb.AppendFrame(nil, flags, payload)
	if c.text {
		b = grpcweb.AppendText(nil, b)
	}
	if _, err := c.w.Write(b); err != nil {
		return err
	}
	return c.rc.Flush()
}

// send writes one message frame.
func (c *webCall) send(m proto.Message) error {
	payload, err := proto.Marshal(m)
	if err != nil {
		return err
	}
	return c.frame(0, payload)
}

// trailersOnly answers with the status in the headers and an empty body.
func (c *webCall) trailersOnly(code codes.Code, msg string) {
	h := c.w.Header()
	h.Set("Content-Type", c.ct)
	h.Set("Grpc-Status", strconv.Itoa(int(code)))
	h.Set("Grpc-Message", grpcweb.EncodeMessage(msg))
	c.w.WriteHeader(http.StatusOK)
}
