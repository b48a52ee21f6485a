package main

import (
	"bytes"

	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// text_request_content_length_recomputed: a browser sends a unary grpc-web-text request with a
// content-length (the base64 body's). Decoding shrinks the body by a quarter, so the origin
// must drop or recompute the length before the gRPC server sees it (traefik#9697: the kept
// length made grpc-java reject the call). The server is request_headers_after_reconversion's,
// which lists what is wrong with the request it got.

const textRequestLengthPayload = 1000

func checkTextRequestLength(c *checker) error {
	msg, _ := proto.Marshal(&testpb.SimpleRequest{ResponseSize: 10, Payload: &testpb.Payload{Body: pattern(textRequestLengthPayload)}})
	body := grpcweb.AppendText(nil, grpcweb.AppendFrame(nil, 0, msg))
	c.step("UnaryCall as application/grpc-web-text over HTTP/1.1 with content-length: %d (the decoded body has %d bytes)",
		len(body), len(msg)+5)
	m, err := c.textUnary(bytes.NewReader(body))
	if err != nil {
		return err
	}
	if n := len(m.GetPayload().GetBody()); n != 10 {
		return failf("want a 10-byte answer payload, got %d bytes", n)
	}
	return nil
}
