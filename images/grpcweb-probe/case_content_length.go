package main

import (
	"bytes"
	"context"
	"net/http"
	"strconv"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// upstream_content_length_stripped: the upstream declares a content-length for its DATA. A
// converter that keeps it after reframing the body (adding the gRPC-web trailer frame, or
// taking it away) truncates the converted body or overruns it (envoy#40097).

const contentLengthPayload = 100

func contentLengthServer() http.Handler {
	play := func(c *rawCall) {
		_ = c.read(&testpb.SimpleRequest{})
		msg, _ := proto.Marshal(&testpb.SimpleResponse{Payload: &testpb.Payload{Body: pattern(contentLengthPayload)}})
		frame := grpcweb.AppendFrame(nil, 0, msg)
		h := c.w.Header()
		h.Set("Content-Type", c.contentType())
		h.Set("Content-Length", strconv.Itoa(len(frame)))
		c.w.WriteHeader(http.StatusOK)
		c.started = true
		_, _ = c.w.Write(frame)
		c.finish(codes.OK, "")
	}
	return rawHandler(play, nil)
}

func checkContentLength(c *checker) error {
	req, _ := proto.Marshal(&testpb.SimpleRequest{ResponseSize: contentLengthPayload})
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	c.step("UnaryCall over raw HTTP/2; the server's answer declares content-length for its one message")
	resp, body, err := rawH2Call(ctx, c.target, unaryPath, grpcweb.AppendFrame(nil, 0, req))
	if resp == nil {
		return failf("want an HTTP/2 response, got %v", err)
	}
	c.step("got HTTP %d, content-length %q, %d body bytes, grpc-status %q in the trailers",
		resp.StatusCode, resp.Header.Values("Content-Length"), len(body), resp.Trailer.Values("Grpc-Status"))
	switch {
	case err != nil:
		return failf("want the whole body, got an error after %d bytes: %v", len(body), err)
	case resp.StatusCode != http.StatusOK:
		return failf("want HTTP 200, got %d", resp.StatusCode)
	}
	if cl := resp.Header.Values("Content-Length"); len(cl) > 0 && (len(cl) != 1 || cl[0] != strconv.Itoa(len(body))) {
		return failf("want content-length absent or %d (the body received), got %q", len(body), cl)
	}
	if err := oneResponse(body, pattern(contentLengthPayload)); err != nil {
		return err
	}
	if st := resp.Trailer.Values("Grpc-Status"); len(st) != 1 || st[0] != "0" {
		return failf("want trailer grpc-status 0, got %q (grpc-message %q, header grpc-status %q)",
			st, resp.Trailer.Get("Grpc-Message"), resp.Header.Values("Grpc-Status"))
	}
	return nil
}

// oneResponse checks that a gRPC body is exactly one SimpleResponse carrying payload.
func oneResponse(body, payload []byte) error {
	frames, err := readFrames(body)
	if err != nil {
		return failf("want one well-formed message in the body, got %v", err)
	}
	if len(frames) != 1 || frames[0].Flags != 0 {
		return failf("want exactly one message frame in the %d-byte body, got %s", len(body), frameList(frames))
	}
	var resp testpb.SimpleResponse
	if err := proto.Unmarshal(frames[0].Payload, &resp); err != nil {
		return failf("want a SimpleResponse, got %v", err)
	}
	if got := resp.GetPayload().GetBody(); !bytes.Equal(got, payload) {
		return failf("want a %d-byte payload as sent, got %d bytes that differ", len(payload), len(got))
	}
	return nil
}
