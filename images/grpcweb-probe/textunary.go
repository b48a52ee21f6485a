package main

import (
	"bytes"
	"context"
	"io"

	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// textUnary posts body as a grpc-web-text UnaryCall over HTTP/1.1 within callTimeout and checks
// the answer: HTTP 200 in the -text content type, one message, then trailers with grpc-status 0.
// It returns the message.
func (c *checker) textUnary(body io.Reader) (*testpb.SimpleResponse, error) {
	const ct = "application/grpc-web-text"
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	resp, got, err := webPost(ctx, c.target, unaryPath, ct, body)
	if err != nil {
		return nil, failf("want a gRPC-web-text response, got %v", err)
	}
	if err := c.wantWebAnswer(resp, got, ct); err != nil {
		return nil, err
	}
	if hs := headerStatus(resp); hs != "" && len(got) == 0 {
		return nil, failf("want OK with an answer, got %s", hs)
	}
	decoded, err := io.ReadAll(grpcweb.NewTextDecoder(bytes.NewReader(got)))
	if err != nil {
		return nil, failf("want a base64 body, got %v", err)
	}
	wb, err := parseWebBody(decoded)
	if err != nil {
		return nil, err
	}
	md, err := grpcweb.ParseTrailers(wb.trailers)
	if err != nil {
		return nil, failf("want a well-formed trailer block, got %v", err)
	}
	if st, _ := md.Get("grpc-status"); st != "0" {
		msg, _ := md.Get("grpc-message")
		return nil, failf("want grpc-status 0, got %q %q", st, grpcweb.DecodeMessage(msg))
	}
	if len(wb.messages) != 1 {
		return nil, failf("want one message before the trailers, got %d", len(wb.messages))
	}
	var m testpb.SimpleResponse
	if err := proto.Unmarshal(wb.messages[0].Payload, &m); err != nil {
		return nil, failf("want a SimpleResponse, got %v", err)
	}
	return &m, nil
}
