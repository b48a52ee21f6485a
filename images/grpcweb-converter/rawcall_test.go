package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// frameOf is m as one uncompressed gRPC frame.
func frameOf(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return grpcweb.AppendFrame(nil, 0, b)
}

// rawResult is a response read frame by frame, without a gRPC library's interpretation.
type rawResult struct {
	resp         *http.Response
	messages     [][]byte
	body         []byte // the whole (decoded) body
	status       string // grpc-status from the trailers, the trailer frame or (trailers-only) headers
	message      string // decoded grpc-message
	trailersOnly bool   // status in the headers and an empty body
	trailerFrame grpcweb.Metadata
}

// rawCall POSTs body to url with content type ct and reads the whole response.
func rawCall(t *testing.T, rt http.RoundTripper, url, ct string, body []byte, hdr http.Header) rawResult {
	t.Helper()
	r, err := rawCallErr(testContext(t), rt, url, ct, body, hdr)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// rawCallErr is rawCall for use outside the test goroutine.
func rawCallErr(ctx context.Context, rt http.RoundTripper, url, ct string, body []byte, hdr http.Header) (rawResult, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return rawResult{}, err
	}
	for k, vs := range hdr {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", ct)
	if strings.HasPrefix(ct, "application/grpc+") || ct == "application/grpc" {
		req.Header.Set("Te", "trailers")
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return rawResult{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return rawResult{}, fmt.Errorf("reading the response body: %w", err)
	}
	r := rawResult{resp: resp, body: raw}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/grpc-web-text") {
		if r.body, err = readText(raw); err != nil {
			return r, fmt.Errorf("response is not valid grpc-web-text: %w", err)
		}
	}
	frames := grpcweb.NewFrameReader(bytes.NewReader(r.body), 0)
	for {
		f, err := frames.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return r, fmt.Errorf("response body: %w", err)
		}
		if f.IsTrailer() {
			if r.trailerFrame, err = grpcweb.ParseTrailers(f.Payload); err != nil {
				return r, err
			}
			continue
		}
		r.messages = append(r.messages, f.Payload)
	}
	switch {
	case r.trailerFrame != nil:
		r.status, _ = r.trailerFrame.Get("grpc-status")
		r.message, _ = r.trailerFrame.Get("grpc-message")
	case resp.Trailer.Get("Grpc-Status") != "":
		r.status, r.message = resp.Trailer.Get("Grpc-Status"), resp.Trailer.Get("Grpc-Message")
	default:
		r.status, r.message = resp.Header.Get("Grpc-Status"), resp.Header.Get("Grpc-Message")
		r.trailersOnly = r.status != "" && len(raw) == 0
	}
	r.message = grpcweb.DecodeMessage(r.message)
	return r, nil
}

// appendText is grpc-web-text encoding of b as one chunk.
func appendText(dst, b []byte) []byte { return grpcweb.AppendText(dst, b) }

// readText decodes a grpc-web-text body.
func readText(b []byte) ([]byte, error) {
	return io.ReadAll(grpcweb.NewTextDecoder(bytes.NewReader(b)))
}

// webBody is a binary gRPC-web response body: one frame per message, then the trailer block.
func webBody(messages [][]byte, trailers string) []byte {
	var b []byte
	for _, m := range messages {
		b = grpcweb.AppendFrame(b, 0, m)
	}
	return grpcweb.AppendFrame(b, grpcweb.FlagTrailer, []byte(trailers))
}

type metadataMD = metadata.MD

func itoa(n int) string { return strconv.Itoa(n) }

func parseCodeForTest(s string) (codes.Code, bool) {
	c, ok := grpcweb.ParseCode(s)
	return codes.Code(c), ok
}
