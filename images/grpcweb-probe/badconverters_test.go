package main

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// naiveEdge is an edge converter (h2c gRPC in, HTTP/1.1 gRPC-web out) with one of the bugs real
// edges had; without a bug it converts correctly enough for the probe's edge cases.
type naiveEdge struct {
	upstream string
	text     bool
	// caseSensitive looks trailers up by their lowercase names only (improbable#228).
	caseSensitive bool
	// bodyStatusOnly ignores a status in the response headers and wants a trailer frame
	// (grpc-web#1101).
	bodyStatusOnly bool
	// wholeBase64 decodes a grpc-web-text body as one base64 string (inner padding fails).
	wholeBase64 bool
	// refusedInternal reports an unreachable upstream as INTERNAL instead of UNAVAILABLE.
	refusedInternal bool
}

func (e *naiveEdge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	ct := "application/grpc-web"
	if e.text {
		ct, body = "application/grpc-web-text", grpcweb.AppendText(nil, body)
	}
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "http://"+e.upstream+r.URL.Path, bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("X-Grpc-Web", "1")
	tr := &http.Transport{Proxy: nil}
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		code := codes.Unavailable
		if e.refusedInternal {
			code = codes.Internal
		}
		grpcStatus(w, code, err.Error())
		return
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if st := resp.Header.Get("Grpc-Status"); st != "" && len(raw) == 0 && !e.bodyStatusOnly {
		c, _ := strconv.Atoi(st)
		grpcStatus(w, codes.Code(c), grpcweb.DecodeMessage(resp.Header.Get("Grpc-Message")))
		return
	}
	if e.text {
		if e.wholeBase64 {
			raw, err = base64.StdEncoding.DecodeString(string(raw))
		} else {
			raw, err = io.ReadAll(grpcweb.NewTextDecoder(bytes.NewReader(raw)))
		}
		if err != nil {
			grpcStatus(w, codes.Internal, "decoding grpc-web-text: "+err.Error())
			return
		}
	}
	wb, err := parseWebBody(raw)
	if err != nil {
		grpcStatus(w, codes.Internal, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/grpc")
	w.WriteHeader(http.StatusOK)
	for _, f := range wb.messages {
		_, _ = w.Write(grpcweb.AppendFrame(nil, f.Flags, f.Payload))
	}
	md, _ := grpcweb.ParseTrailers(wb.trailers)
	if e.caseSensitive {
		md = exactNames(wb.trailers)
	}
	if _, ok := md.Get("grpc-status"); !ok {
		md = append(md, grpcweb.Field{Name: "grpc-status", Value: strconv.Itoa(int(codes.Unknown))})
	}
	for _, f := range md {
		w.Header().Add(http.TrailerPrefix+f.Name, f.Value)
	}
}

// exactNames parses a trailer block keeping only lowercase-named fields, as a lookup by exact
// lowercase name sees it.
func exactNames(block []byte) grpcweb.Metadata {
	var md grpcweb.Metadata
	for _, line := range strings.Split(string(block), "\r\n") {
		name, value, ok := strings.Cut(line, ":")
		if ok && name == strings.ToLower(name) {
			md = append(md, grpcweb.Field{Name: name, Value: strings.TrimSpace(value)})
		}
	}
	return md
}

// naiveOrigin is an origin converter (HTTP/1.1 gRPC-web in, h2c gRPC out) with one of the bugs
// real origins had.
type naiveOrigin struct {
	upstream string
	// keepContentLength passes the upstream's content-length on, though the trailer frame is
	// added to the body (envoy#40097): the end of the body is cut off.
	keepContentLength bool
	// canonicalNames writes trailer names as Go's http.Header keeps them ("Grpc-Status").
	canonicalNames bool
	// lastValueOnly writes one value per trailer name.
	lastValueOnly bool
	// wholeBase64 decodes a grpc-web-text body as one base64 string (inner padding fails).
	wholeBase64 bool
}

func (o *naiveOrigin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ct := r.Header.Get("Content-Type")
	text := strings.HasPrefix(ct, "application/grpc-web-text")
	body, err := io.ReadAll(r.Body)
	if text && o.wholeBase64 {
		body, err = base64.StdEncoding.DecodeString(string(body))
	} else if text {
		body, err = io.ReadAll(grpcweb.NewTextDecoder(bytes.NewReader(body)))
	}
	if err != nil {
		webStatus(w, ct, codes.Internal, "decoding the request: "+err.Error())
		return
	}
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "http://"+o.upstream+r.URL.Path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("Te", "trailers")
	tr := h2cTransport()
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		webStatus(w, ct, codes.Unavailable, err.Error())
		return
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body) // fills resp.Trailer
	if o.keepContentLength {
		w.Header()["Content-Length"] = resp.Header["Content-Length"]
	}
	setLowercase(w.Header(), resp.Header, func(name string) bool { return strings.HasPrefix(name, "x-") })
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(http.StatusOK)
	trailer := resp.Trailer
	if _, ok := resp.Header["Grpc-Status"]; ok { // trailers-only: sent here as a trailer frame
		trailer = http.Header{}
		for k, vv := range resp.Header {
			if name := strings.ToLower(k); strings.HasPrefix(name, "grpc-") || strings.HasPrefix(name, "x-") {
				trailer[k] = vv
			}
		}
	}
	var block []byte
	names := make([]string, 0, len(trailer))
	for k := range trailer {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		vv := trailer[k]
		if o.lastValueOnly {
			vv = vv[len(vv)-1:]
		}
		name := strings.ToLower(k)
		if o.canonicalNames {
			name = k
		}
		for _, v := range vv {
			block = append(block, name+": "+v+"\r\n"...)
		}
	}
	for _, part := range [][]byte{out, grpcweb.AppendFrame(nil, grpcweb.FlagTrailer, block)} {
		if text {
			part = grpcweb.AppendText(nil, part)
		}
		_, _ = w.Write(part) // beyond a kept content-length, net/http refuses the write
	}
}

// webStatus answers a gRPC-web request trailers-only.
func webStatus(w http.ResponseWriter, ct string, code codes.Code, msg string) {
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Grpc-Status", strconv.Itoa(int(code)))
	w.Header().Set("Grpc-Message", grpcweb.EncodeMessage(msg))
	w.WriteHeader(http.StatusOK)
}
