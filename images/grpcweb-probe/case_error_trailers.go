package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// streamed_error_trailers_lowercase: PROTOCOL-WEB.md says "use lower-case header/trailer names".
// body_trailers_lowercase checks that on a unary call ending OK; converters have kept it there
// and broken it on their error paths: grpc-dotnet#1168 (.NET 5 wrote the trailers of a server
// stream ending in an error with capitalised names; browsers' clients lost the error) and
// connect-go#461 (lowercased the body's trailers, not a trailers-only answer's). Here a real
// grpc-go server ends a server stream with an error after two messages, and answers a unary call
// with a trailers-only error; both carry grpc-status, a grpc-message that needs percent-encoding
// and custom trailers, one binary, one using every character a name may have. The client speaks
// gRPC-web over HTTP/1.1 to the origin and reads the bytes as they came: the trailer names must
// be lowercase wherever the trailers travel (the body's trailer frame, or the headers of a
// trailers-only answer), the values exact, and the stream's header metadata apart from them.

const (
	streamErrorMessage = "probe: aborted after 2 messages, 100% (ü)"
	unaryErrorMessage  = "probe: not found, 100% (ü)"
	// errorTrailerName uses every character a metadata name may have (PROTOCOL-HTTP2.md
	// Header-Name: 0-9 a-z _ - .).
	errorTrailerName = "x-probe.trailer_0"
	errorHeaderName  = "x-probe-header"
	errorBinName     = "x-probe-trailer-bin"
)

var errorBinValue = []byte{0, 1, 0xfe, 0xff}

// errorTrailersService is the case's grpc-go server.
type errorTrailersService struct {
	testgrpc.UnimplementedTestServiceServer
}

func newErrorTrailersService(*observer) testgrpc.TestServiceServer { return errorTrailersService{} }

// StreamingOutputCall sends header metadata and the requested messages, then ends ABORTED with
// trailers.
func (errorTrailersService) StreamingOutputCall(req *testpb.StreamingOutputCallRequest, stream testgrpc.TestService_StreamingOutputCallServer) error {
	if err := stream.SendHeader(metadata.Pairs(errorHeaderName, "in the headers")); err != nil {
		return err
	}
	for _, p := range req.GetResponseParameters() {
		if err := stream.Send(&testpb.StreamingOutputCallResponse{Payload: &testpb.Payload{Body: pattern(int(p.GetSize()))}}); err != nil {
			return err
		}
	}
	stream.SetTrailer(metadata.Pairs(errorTrailerName, "stream", errorBinName, string(errorBinValue)))
	return status.Error(codes.Aborted, streamErrorMessage)
}

// UnaryCall fails at once with trailers: grpc-go answers trailers-only.
func (errorTrailersService) UnaryCall(ctx context.Context, _ *testpb.SimpleRequest) (*testpb.SimpleResponse, error) {
	_ = grpc.SetTrailer(ctx, metadata.Pairs(errorTrailerName, "trailers-only"))
	return nil, status.Error(codes.NotFound, unaryErrorMessage)
}

func checkErrorTrailers(c *checker) error {
	if err := checkStreamErrorTrailers(c); err != nil {
		return err
	}
	return checkTrailersOnlyNames(c)
}

// checkStreamErrorTrailers: two messages, then a trailer frame with lowercase names and the
// server's status and trailers; the header metadata in the headers only.
func checkStreamErrorTrailers(c *checker) error {
	req, _ := proto.Marshal(&testpb.StreamingOutputCallRequest{ResponseParameters: []*testpb.ResponseParameters{{Size: 10}, {Size: 20}}})
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	const ct = "application/grpc-web+proto"
	c.step("StreamingOutputCall as %s over HTTP/1.1; the server sends 2 messages, then ABORTED %q with trailers %s, %s", ct, streamErrorMessage, errorTrailerName, errorBinName)
	fields, resp, body, err := rawWebPost(ctx, c.target, streamingPath, ct, grpcweb.AppendFrame(nil, 0, req))
	if err != nil {
		return failf("stream: want a gRPC-web response, got %v", err)
	}
	if err := c.wantWebAnswer(resp, body, "application/grpc-web"); err != nil {
		return err
	}
	wb, err := parseWebBody(body)
	if err != nil {
		if hs := headerStatus(resp); hs != "" {
			return failf("stream: want 2 messages and a trailer frame, got %s", hs)
		}
		return err
	}
	c.step("stream: %d messages, trailer block %q", len(wb.messages), wb.trailers)
	if len(wb.messages) != 2 || len(wb.messages[0].Payload) == len(wb.messages[1].Payload) {
		return failf("stream: want the 2 messages before the trailers, got %s", frameList(wb.messages))
	}
	for _, name := range trailerNames(wb.trailers) {
		if name != strings.ToLower(name) {
			return failf("stream: want lowercase trailer names in the body after an error, got %q in %q (grpc-dotnet#1168)", name, wb.trailers)
		}
	}
	md, err := grpcweb.ParseTrailers(wb.trailers)
	if err != nil {
		return failf("stream: want a well-formed trailer block, got %v", err)
	}
	if err := wantErrorTrailers("stream", md, codes.Aborted, streamErrorMessage, "stream"); err != nil {
		return err
	}
	if bin := md.Values(errorBinName); len(bin) != 1 || !slices.Equal(decodeBin(bin[0]), errorBinValue) {
		return failf("stream: want trailer %s %q (base64), got %q", errorBinName, errorBinValue, bin)
	}
	if v := md.Values(errorHeaderName); len(v) > 0 {
		return failf("stream: want header metadata %s in the headers only, got it in the trailers too (%q)", errorHeaderName, v)
	}
	if len(namesAsWritten(fields, errorHeaderName)) == 0 {
		return failf("stream: want header metadata %s in the response headers, got %q", errorHeaderName, fields)
	}
	return nil
}

// checkTrailersOnlyNames: an immediate error, its trailers in the headers (or, as a converter may
// send it, a lone trailer frame): names lowercase, values exact.
func checkTrailersOnlyNames(c *checker) error {
	req, _ := proto.Marshal(&testpb.SimpleRequest{ResponseSize: 10})
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	const ct = "application/grpc-web+proto"
	c.step("UnaryCall as %s over HTTP/1.1; the server answers trailers-only NOT_FOUND %q with trailer %s", ct, unaryErrorMessage, errorTrailerName)
	fields, resp, body, err := rawWebPost(ctx, c.target, unaryPath, ct, grpcweb.AppendFrame(nil, 0, req))
	if err != nil {
		return failf("trailers-only: want a gRPC-web response, got %v", err)
	}
	if err := c.wantWebAnswer(resp, body, "application/grpc-web"); err != nil {
		return err
	}
	if _, inHeaders := resp.Header["Grpc-Status"]; !inHeaders { // the status in a trailer frame
		wb, err := parseWebBody(body)
		if err != nil {
			return failf("trailers-only: want the status in the headers or a trailer frame, got %v", err)
		}
		c.step("trailers-only: as a trailer frame %q", wb.trailers)
		for _, name := range trailerNames(wb.trailers) {
			if name != strings.ToLower(name) {
				return failf("trailers-only: want lowercase trailer names, got %q in %q", name, wb.trailers)
			}
		}
		md, err := grpcweb.ParseTrailers(wb.trailers)
		if err != nil {
			return failf("trailers-only: want a well-formed trailer block, got %v", err)
		}
		return wantErrorTrailers("trailers-only", md, codes.NotFound, unaryErrorMessage, "trailers-only")
	}
	c.step("trailers-only: header fields %q, %d body bytes", fields, len(body))
	if len(body) != 0 {
		return failf("trailers-only: want no body with the status in the headers, got %d bytes", len(body))
	}
	for _, name := range []string{"grpc-status", "grpc-message", errorTrailerName} {
		for _, n := range namesAsWritten(fields, name) {
			if n != name {
				return failf("trailers-only: want the trailer names in the headers lowercase, got %q (connect-go#461)", n)
			}
		}
	}
	return wantErrorTrailers("trailers-only", grpcweb.MetadataFromHeader(resp.Header), codes.NotFound, unaryErrorMessage, "trailers-only")
}

// wantErrorTrailers checks the status, the decoded message and the custom trailer's one value.
func wantErrorTrailers(what string, md grpcweb.Metadata, code codes.Code, msg, custom string) error {
	st, m := md.Values("grpc-status"), md.Values("grpc-message")
	if want := fmt.Sprint(int(code)); !slices.Equal(st, []string{want}) || len(m) != 1 || grpcweb.DecodeMessage(m[0]) != msg {
		return failf("%s: want grpc-status %d and grpc-message %q, got %q and %q", what, code, msg, st, m)
	}
	if v := md.Values(errorTrailerName); !slices.Equal(v, []string{custom}) {
		return failf("%s: want trailer %s %q, got %q", what, errorTrailerName, custom, v)
	}
	return nil
}

// decodeBin decodes a -bin value, padded or not (PROTOCOL-HTTP2.md: accept both).
func decodeBin(v string) []byte {
	b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
	if err != nil {
		return nil
	}
	return b
}
