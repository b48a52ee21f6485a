package main

import (
	"context"
	"io"
	"net/http"
)

// post sends body to path on target through rt with header, and returns the response with its
// whole body read (over HTTP/2 that fills resp.Trailer too). The raw clients (rawH2Call,
// webPost) differ only in transport and headers.
func post(ctx context.Context, rt http.RoundTripper, target, path string, header http.Header, body io.Reader) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+target+path, body)
	if err != nil {
		return nil, nil, err
	}
	req.Header = header
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	return resp, got, err
}
