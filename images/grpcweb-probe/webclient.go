package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// webPost posts a gRPC-web request over HTTP/1.1 (never a proxy, never compression: the origin
// under test is to see the bytes as sent) and returns the response with its whole body.
func webPost(ctx context.Context, target, path, contentType string, body io.Reader) (*http.Response, []byte, error) {
	tr := &http.Transport{Proxy: nil, DisableCompression: true, Protocols: new(http.Protocols)}
	tr.Protocols.SetHTTP1(true)
	defer tr.CloseIdleConnections()
	header := http.Header{"Content-Type": {contentType}, "Accept": {contentType}, "X-Grpc-Web": {"1"}}
	return post(ctx, tr, target, path, header, body)
}

// webBody is a gRPC-web response body split into its message frames and its trailer frame.
type webBody struct {
	messages []grpcweb.Frame
	trailers []byte // the trailer frame's header block
}

// parseWebBody checks the body's shape: message frames, then exactly one trailer frame, then
// nothing.
func parseWebBody(body []byte) (webBody, error) {
	var wb webBody
	frames, err := readFrames(body)
	if err != nil {
		return wb, failf("want well-formed gRPC-web frames, got %v after %s", err, frameList(frames))
	}
	for i, f := range frames {
		switch {
		case f.IsTrailer() && i != len(frames)-1:
			return wb, failf("want the trailer frame last, got %s", frameList(frames))
		case f.IsTrailer() && f.IsCompressed():
			return wb, failf("want uncompressed trailers, got a trailer frame with flags 0x%02x", f.Flags)
		case f.IsTrailer():
			wb.trailers = f.Payload
		case f.Flags != 0:
			return wb, failf("want uncompressed message frames, got %s", frameList(frames))
		default:
			wb.messages = append(wb.messages, f)
		}
	}
	if wb.trailers == nil {
		return wb, failf("want a trailer frame (flag 0x80) at the end of the body, got %s", frameList(frames))
	}
	return wb, nil
}

// trailerNames lists the field names of a trailer block exactly as written.
func trailerNames(block []byte) []string {
	var names []string
	for _, line := range strings.Split(string(block), "\n") {
		if name, _, ok := strings.Cut(strings.TrimSuffix(line, "\r"), ":"); ok {
			names = append(names, name)
		}
	}
	return names
}

// headerStatus describes a status sent in the response headers (trailers-only), if any.
func headerStatus(resp *http.Response) string {
	if _, ok := resp.Header["Grpc-Status"]; !ok {
		return ""
	}
	return fmt.Sprintf("grpc-status %q grpc-message %q in the headers", resp.Header.Get("Grpc-Status"),
		grpcweb.DecodeMessage(resp.Header.Get("Grpc-Message")))
}

// wantWebAnswer prints the answer's step line and wants HTTP 200 in a content type starting
// with ct.
func (c *checker) wantWebAnswer(resp *http.Response, body []byte, ct string) error {
	c.step("got HTTP %d %q, %d body bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), ct) {
		return failf("want HTTP 200 %s, got %d %q", ct, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return nil
}
