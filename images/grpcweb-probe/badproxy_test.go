package main

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// badProxy stands where a converter chain stands (h2c gRPC in, h2c gRPC out) and passes calls
// on faithfully except for the one bug it is given, so a test can show a check catching it.
type badProxy struct {
	upstream string
	// editRequest changes the upstream request (its body already read into body).
	editRequest func(req *http.Request, body []byte)
	// copyBody relays the response body; nil: frame by frame, each flushed at once.
	copyBody func(w http.ResponseWriter, body io.ReadCloser)
	// lastTrailerOnly keeps one value per trailer name, as a map-based converter does.
	lastTrailerOnly bool
	// notGRPC answers for a response that is not gRPC; nil: relayed as it is.
	notGRPC func(w http.ResponseWriter, resp *http.Response)
	// unreachable answers when the upstream cannot be reached; nil: UNAVAILABLE.
	unreachable func(w http.ResponseWriter, err error)
}

func (p *badProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "http://"+p.upstream+r.URL.Path, bytes.NewReader(body))
	req.Header = r.Header.Clone()
	req.Header.Del("Content-Length")
	req.ContentLength = -1 // streamed in DATA frames without a length, as converters send it
	if p.editRequest != nil {
		p.editRequest(req, body)
	}
	tr := h2cTransport()
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		if p.unreachable != nil {
			p.unreachable(w, err)
		} else {
			grpcStatus(w, codes.Unavailable, err.Error())
		}
		return
	}
	defer resp.Body.Close()
	if p.notGRPC != nil && resp.Header.Get("Grpc-Status") == "" && resp.Header.Get("Content-Type") != "application/grpc" {
		p.notGRPC(w, resp)
		return
	}
	for k, vv := range resp.Header {
		if k != "Content-Length" {
			w.Header()[k] = vv
		}
	}
	w.Header()["Content-Length"] = nil // an empty answer stays trailers-only
	w.WriteHeader(resp.StatusCode)
	copyBody := p.copyBody
	if copyBody == nil {
		copyBody = copyFrames
	}
	copyBody(w, resp.Body)
	for k, vv := range resp.Trailer {
		if p.lastTrailerOnly {
			vv = vv[len(vv)-1:]
		}
		w.Header()[http.TrailerPrefix+k] = vv
	}
}

// copyFrames relays gRPC frames one by one, each flushed as it comes.
func copyFrames(w http.ResponseWriter, body io.ReadCloser) {
	fr := grpcweb.NewFrameReader(body, 0)
	for {
		f, err := fr.Next()
		if err != nil {
			return
		}
		_, _ = w.Write(grpcweb.AppendFrame(nil, f.Flags, f.Payload))
		_ = http.NewResponseController(w).Flush()
	}
}

// bufferWhole holds the whole response body until the upstream ends it.
func bufferWhole(w http.ResponseWriter, body io.ReadCloser) {
	b, _ := io.ReadAll(body)
	_, _ = w.Write(b)
}

// holdLarge passes small frames on at once but keeps a frame over 4 KiB until the next one
// arrives, as a writer that flushes only when its buffer fills (grpc-web#820).
func holdLarge(w http.ResponseWriter, body io.ReadCloser) {
	fr := grpcweb.NewFrameReader(body, 0)
	var held []byte
	for {
		f, err := fr.Next()
		if err != nil {
			_, _ = w.Write(held)
			return
		}
		held = grpcweb.AppendFrame(held, f.Flags, f.Payload)
		if len(f.Payload) <= 4<<10 {
			_, _ = w.Write(held)
			_ = http.NewResponseController(w).Flush()
			held = nil
		}
	}
}

// cutAfter relays frames but resets the stream d after the response started, as a proxy's
// write timeout does (improbable#171: 10 s).
func cutAfter(d time.Duration) func(http.ResponseWriter, io.ReadCloser) {
	return func(w http.ResponseWriter, body io.ReadCloser) {
		timer := time.AfterFunc(d, func() { body.Close() })
		defer timer.Stop()
		copyFrames(w, body)
		if !timer.Stop() {
			panic(http.ErrAbortHandler) // the stream is reset, no trailers
		}
	}
}

// grpcStatus answers trailers-only with code and msg.
func grpcStatus(w http.ResponseWriter, code codes.Code, msg string) {
	h := w.Header()
	h.Set("Content-Type", "application/grpc")
	h.Set("Grpc-Status", strconv.Itoa(int(code)))
	h.Set("Grpc-Message", grpcweb.EncodeMessage(msg))
	h["Content-Length"] = nil
	w.WriteHeader(http.StatusOK)
}

// hang accepts calls and never answers, as a converter stuck on an unreachable upstream.
var hang = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
