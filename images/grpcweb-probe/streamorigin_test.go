package main

import (
	"context"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"google.golang.org/grpc/codes"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// streamOrigin is a small streaming origin converter (HTTP/1.1 binary gRPC-web in, h2c gRPC out)
// written from PROTOCOL-WEB.md apart from wirelab's, the way the converter of issue #27 was: the
// request body is copied to the upstream request as it comes, the answer relayed as it comes.
// Each option is one of the bugs that converter had, one at a time.
type streamOrigin struct {
	upstream string
	// ignoreCopyError ends the upstream request cleanly when the client's body breaks off (the
	// io.Copy error ignored) and runs the upstream call apart from the client's connection.
	ignoreCopyError bool
	// dropTimeout does not pass grpc-timeout on.
	dropTimeout bool
	// canonicalTrailersOnly writes a trailers-only answer's fields with http.Header.Set, so in
	// canonical case (connect-go#461 lowercased only the body's trailers).
	canonicalTrailersOnly bool
	// headersInTrailers repeats the response headers in the trailer frame (improbable#228's block
	// carried Content-Type).
	headersInTrailers bool
}

func (o *streamOrigin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if o.ignoreCopyError {
		ctx = context.WithoutCancel(ctx)
	}
	_ = http.NewResponseController(w).EnableFullDuplex()
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, r.Body)
		if o.ignoreCopyError {
			err = nil
		}
		pw.CloseWithError(err)
	}()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+o.upstream+r.URL.Path, pr)
	req.ContentLength = -1
	for k, vv := range r.Header {
		if name := strings.ToLower(k); strings.HasPrefix(name, "x-") || (name == "grpc-timeout" && !o.dropTimeout) {
			req.Header[k] = vv
		}
	}
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("Te", "trailers")
	tr := h2cTransport()
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		webStatus(w, "application/grpc-web", codes.Unavailable, err.Error())
		return
	}
	defer resp.Body.Close()
	setLowercase(w.Header(), resp.Header, func(name string) bool { return strings.HasPrefix(name, "x-") })
	w.Header().Set("Content-Type", "application/grpc-web")
	if _, ok := resp.Header["Grpc-Status"]; ok { // trailers-only stays trailers-only
		setLowercase(w.Header(), resp.Header, func(name string) bool { return strings.HasPrefix(name, "grpc-") })
		if o.canonicalTrailersOnly {
			h := w.Header()
			for _, k := range slices.Collect(maps.Keys(h)) {
				vv := h[k]
				delete(h, k)
				h.Set(k, vv[0]) // Set canonicalises the name
			}
		}
		w.WriteHeader(http.StatusOK)
		return
	}
	w.WriteHeader(http.StatusOK)
	_ = http.NewResponseController(w).Flush()
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			_ = http.NewResponseController(w).Flush()
		}
		if err != nil {
			break
		}
	}
	trailers := grpcweb.MetadataFromHeader(resp.Trailer)
	if o.headersInTrailers {
		trailers = append(grpcweb.MetadataFromHeader(resp.Header), trailers...)
	}
	_, _ = w.Write(grpcweb.AppendFrame(nil, grpcweb.FlagTrailer, grpcweb.AppendTrailers(nil, trailers)))
}

// setLowercase copies the fields of src that keep selects into dst under lowercase names
// (PROTOCOL-WEB.md: lowercase header names; net/http writes map keys as they are).
func setLowercase(dst, src http.Header, keep func(name string) bool) {
	names := make([]string, 0, len(src))
	for k := range src {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if name := strings.ToLower(k); keep(name) {
			dst[name] = src[k]
		}
	}
}
