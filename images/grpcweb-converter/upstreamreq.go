package main

import (
	"io"
	"net/http"
	"time"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// upstreamRequest is the converted request: same path and metadata, the upstream protocol's
// content type, the remaining grpc-timeout, the converter mark, and no content-length (the body
// is re-framed, so only the transport knows its length; it streams it chunked or in DATA frames).
func (c *converter) upstreamRequest(s *stream, r *http.Request, in contentType, body io.Reader) (*http.Request, error) {
	u := *c.cfg.upstream
	u.Path, u.RawPath, u.RawQuery = r.URL.Path, r.URL.RawPath, r.URL.RawQuery
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, u.String(), body)
	if err != nil {
		return nil, err
	}
	for _, f := range forwardable(r.Header, nil) {
		req.Header.Add(f.Name, f.Value)
	}
	out := c.upstreamContentType(in)
	req.Header.Set("Content-Type", out.String())
	if c.cfg.mode == modeEdge {
		req.Header.Set("Accept", out.String())
		req.Header.Set("X-Grpc-Web", "1")
	} else {
		req.Header.Set("Te", "trailers") // gRPC servers may refuse a request without it
	}
	if deadline, ok := s.ctx.Deadline(); ok && s.timeout && c.cfg.misbehave != dropGRPCTimeout {
		req.Header.Set("Grpc-Timeout", grpcweb.FormatTimeout(time.Until(deadline)))
	}
	req.Header[http.CanonicalHeaderKey(markerHeader)] = append(markerValues(r.Header), c.cfg.mode)
	req.ContentLength = -1
	if c.cfg.misbehave == staleContentLength {
		req.ContentLength = r.ContentLength // the bug: the length of the body before conversion
	}
	return req, nil
}

// upstreamContentType keeps the codec suffix and switches the family.
func (c *converter) upstreamContentType(in contentType) contentType {
	switch {
	case c.cfg.mode == modeOrigin:
		return in.with(familyGRPC)
	case c.cfg.text:
		return in.with(familyWebText)
	}
	return in.with(familyWeb)
}
