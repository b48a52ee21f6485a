package main

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"

	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// body_trailers_lowercase: an origin converter writes the gRPC trailers into the gRPC-web body
// as one 0x80 frame whose field names are lowercase (PROTOCOL-WEB.md), repeated keys included.
// Canonicalising ("Grpc-Status") broke case-sensitive clients (improbable#228, grpc-web#696).

func lowercaseServer() http.Handler {
	play := func(c *rawCall) {
		serveUnary(c, unaryAnswer, "x-probe-trailer", "v", "x-probe-dup", dupValues[0], "x-probe-dup", dupValues[1])
	}
	return rawHandler(play, nil)
}

func checkLowercase(c *checker) error {
	req, _ := proto.Marshal(&testpb.SimpleRequest{ResponseSize: 10})
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	const ct = "application/grpc-web+proto"
	c.step("UnaryCall as %s over HTTP/1.1; the server's trailers are x-probe-trailer: v and x-probe-dup: one, two", ct)
	resp, body, err := webPost(ctx, c.target, unaryPath, ct, bytes.NewReader(grpcweb.AppendFrame(nil, 0, req)))
	if err != nil {
		return failf("want a gRPC-web response, got %v", err)
	}
	if err := c.wantWebAnswer(resp, body, "application/grpc-web"); err != nil {
		return err
	}
	wb, err := parseWebBody(body)
	if err != nil {
		if hs := headerStatus(resp); hs != "" {
			return failf("want OK with a message and body trailers, got %s", hs)
		}
		return err
	}
	c.step("trailer block %q", wb.trailers)
	if len(wb.messages) != 1 {
		return failf("want one message before the trailers, got %d", len(wb.messages))
	}
	var m testpb.SimpleResponse
	if err := proto.Unmarshal(wb.messages[0].Payload, &m); err != nil || len(m.GetPayload().GetBody()) != 10 {
		return failf("want a SimpleResponse with a 10-byte payload, got %d bytes (%v)", len(m.GetPayload().GetBody()), err)
	}
	for _, name := range trailerNames(wb.trailers) {
		if name != strings.ToLower(name) {
			return failf("want lowercase trailer names in the body, got %q in %q", name, wb.trailers)
		}
	}
	md, err := grpcweb.ParseTrailers(wb.trailers)
	if err != nil {
		return failf("want a well-formed trailer block, got %v", err)
	}
	if st := md.Values("grpc-status"); !slices.Equal(st, []string{"0"}) {
		return failf("want grpc-status 0, got %q (grpc-message %q)", st, md.Values("grpc-message"))
	}
	if v := md.Values("x-probe-trailer"); !slices.Equal(v, []string{"v"}) {
		return failf("want x-probe-trailer \"v\", got %q", v)
	}
	var dup []string // two fields, or one joined with commas (RFC 9110 §5.3): the same list
	for _, v := range md.Values("x-probe-dup") {
		for _, part := range strings.Split(v, ",") {
			dup = append(dup, strings.TrimSpace(part))
		}
	}
	if !slices.Equal(dup, dupValues) {
		return failf("want x-probe-dup %q (both, in order), got %q", dupValues, md.Values("x-probe-dup"))
	}
	return nil
}
