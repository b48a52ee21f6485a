package main

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"

	"github.com/wirelab/wirelab/internal/grpcweb"
	"github.com/wirelab/wirelab/internal/observed"
)

// Each case's check fails against a peer with the bug the case guards against, and says what
// it expected and what came.
func TestChecksFailAgainstMisbehavingPeers(t *testing.T) {
	server := func(t *testing.T, name string) string { return playPart(t, roleServer, name) }
	proxy := func(t *testing.T, name string, p *badProxy) string {
		p.upstream = server(t, name)
		return serve(t, roleServer, p)
	}
	probeOrigin := func(t *testing.T, name string) string { return playPart(t, roleOrigin, name) }
	tests := []struct {
		name, peer string
		target     func(t *testing.T, name string) string
		want       string // in the FAIL line
	}{
		{"trailers_only_status_kept", "origin converter appending an empty trailer frame", func(t *testing.T, name string) string {
			return edge(t, origin(t, server(t, name), "--misbehave", "empty-trailer-frame"), false)
		}, `got UNKNOWN "upstream trailers carry no grpc-status"`},
		{"trailers_only_status_kept", "edge converter appending an empty trailer frame", func(t *testing.T, name string) string {
			return edge(t, origin(t, server(t, name)), false, "--misbehave", "empty-trailer-frame")
		}, "got INTERNAL"},
		{"text_request_content_length_recomputed", "origin converter forwarding the -text request's content-length", func(t *testing.T, name string) string {
			return origin(t, server(t, name), "--misbehave", "stale-content-length")
		}, `content-length [\"1352\"] but the body had 1013 bytes`},
		// --misbehave stale-content-length changes requests that carry a content-length, which
		// the gRPC clients of a chain never send: an origin keeping the response's is the bug.
		{"upstream_content_length_stripped", "origin keeping the upstream's content-length", func(t *testing.T, name string) string {
			return edge(t, serve(t, roleOrigin, &naiveOrigin{upstream: server(t, name), keepContentLength: true}), false)
		}, `want trailer grpc-status 0, got ["13"]`},
		{"duplicate_trailers_kept", "proxy keeping one value per trailer", func(t *testing.T, name string) string {
			return proxy(t, name, &badProxy{lastTrailerOnly: true})
		}, `want trailer x-probe-dup ["one" "two"] (both, in order), got ["two"]`},
		{"long_stream_outlives_proxy_timeouts", "proxy cutting streams after a write timeout", func(t *testing.T, name string) string {
			return proxy(t, name, &badProxy{copyBody: cutAfter(3*longStreamGap + longStreamGap/2)})
		}, "want message 5 of 8"},
		{"long_stream_outlives_proxy_timeouts", "proxy buffering the whole response", func(t *testing.T, name string) string {
			return proxy(t, name, &badProxy{copyBody: bufferWhole})
		}, "want message 1 within"},
		{"upstream_html_503_unavailable", "proxy turning a non-gRPC answer into UNKNOWN", func(t *testing.T, name string) string {
			return proxy(t, name, &badProxy{notGRPC: func(w http.ResponseWriter, resp *http.Response) {
				grpcStatus(w, codes.Unknown, "upstream answered "+resp.Status)
			}})
		}, "want UNAVAILABLE, got UNKNOWN"},
		{"upstream_down_unavailable", "converter waiting on a refusing upstream", func(t *testing.T, name string) string {
			return serve(t, roleServer, hang)
		}, "got DEADLINE_EXCEEDED"},
		{"upstream_down_unavailable", "proxy reporting a refused connection as INTERNAL", func(t *testing.T, name string) string {
			return serve(t, roleServer, &badProxy{upstream: closedAddr(t), unreachable: func(w http.ResponseWriter, err error) {
				grpcStatus(w, codes.Internal, err.Error())
			}})
		}, "want UNAVAILABLE, got INTERNAL"},
		{observed.CancelCase, "proxy passing on only a client stream's first message", func(t *testing.T, name string) string {
			return proxy(t, name, &badProxy{editRequest: func(req *http.Request, body []byte) {
				if frames, err := readFrames(body); err == nil && len(frames) > 1 {
					req.Body = io.NopCloser(bytes.NewReader(grpcweb.AppendFrame(nil, frames[0].Flags, frames[0].Payload)))
				}
			}})
		}, "control: want OK with an aggregated size of 30, got OK \"\", 10"},
		{"request_headers_after_reconversion", "proxy dropping te", func(t *testing.T, name string) string {
			return proxy(t, name, &badProxy{editRequest: func(req *http.Request, _ []byte) { req.Header.Del("Te") }})
		}, `got FAILED_PRECONDITION: wirelab-probe: the request is not gRPC after reconversion: te [] (want trailers)`},
		{"request_headers_after_reconversion", "proxy keeping the grpc-web-text body's content-length", func(t *testing.T, name string) string {
			return proxy(t, name, &badProxy{editRequest: func(req *http.Request, body []byte) {
				req.ContentLength = int64(base64.StdEncoding.EncodedLen(len(body)))
			}})
		}, "content-length"},
		{"request_headers_after_reconversion", "proxy passing the grpc-web content type on", func(t *testing.T, name string) string {
			return proxy(t, name, &badProxy{editRequest: func(req *http.Request, _ []byte) {
				req.Header.Set("Content-Type", "application/grpc-web+proto")
			}})
		}, `content-type ["application/grpc-web+proto"]`},
		{"large_message_flushed", "proxy holding messages over 4 KiB until the next", func(t *testing.T, name string) string {
			return proxy(t, name, &badProxy{copyBody: holdLarge})
		}, "want the 6000-byte message within"},
		{"message_size_limit", "server whose limit is a byte smaller", func(t *testing.T, name string) string {
			return serve(t, roleServer, grpcServer(grpc.MaxRecvMsgSize(sizeLimit-1)))
		}, "4194304-byte request: want OK, got RESOURCE_EXHAUSTED"},
		{"message_size_limit", "server without the limit", func(t *testing.T, name string) string {
			return serve(t, roleServer, grpcServer(grpc.MaxRecvMsgSize(2*sizeLimit)))
		}, "4194305-byte request: want RESOURCE_EXHAUSTED, got OK"},
		{"body_trailers_mixed_case_accepted", "edge looking trailers up by lowercase name", func(t *testing.T, name string) string {
			return serve(t, roleServer, &naiveEdge{upstream: probeOrigin(t, name), caseSensitive: true})
		}, "want OK, got UNKNOWN"},
		{"content_length_zero_trailers_only", "edge wanting a trailer frame in the body", func(t *testing.T, name string) string {
			return serve(t, roleServer, &naiveEdge{upstream: probeOrigin(t, name), bodyStatusOnly: true})
		}, `want NOT_FOUND "probe: not found", got INTERNAL`},
		{"text_padded_chunks_decoded", "edge decoding the body as one base64 string", func(t *testing.T, name string) string {
			return serve(t, roleServer, &naiveEdge{upstream: probeOrigin(t, name), text: true, wholeBase64: true})
		}, "illegal base64 data"},
		{"origin_down_unavailable", "edge reporting a refused connection as INTERNAL", func(t *testing.T, name string) string {
			return serve(t, roleServer, &naiveEdge{upstream: closedAddr(t), refusedInternal: true})
		}, "want UNAVAILABLE, got INTERNAL"},
		{"origin_down_unavailable", "edge waiting on a refusing origin", func(t *testing.T, name string) string {
			return serve(t, roleServer, hang)
		}, "got DEADLINE_EXCEEDED"},
		{"body_trailers_lowercase", "origin writing canonical trailer names", func(t *testing.T, name string) string {
			return serve(t, roleOrigin, &naiveOrigin{upstream: server(t, name), canonicalNames: true})
		}, `want lowercase trailer names in the body, got "Grpc-Status"`},
		{"body_trailers_lowercase", "origin keeping one value per trailer", func(t *testing.T, name string) string {
			return serve(t, roleOrigin, &naiveOrigin{upstream: server(t, name), lastValueOnly: true})
		}, `want x-probe-dup ["one" "two"] (both, in order), got ["two"]`},
		{"text_request_padded_chunks_decoded", "origin decoding the body as one base64 string", func(t *testing.T, name string) string {
			return serve(t, roleOrigin, &naiveOrigin{upstream: server(t, name), wholeBase64: true})
		}, "illegal base64 data"},
		{"streamed_error_trailers_lowercase", "origin converter writing error trailers in canonical case", func(t *testing.T, name string) string {
			return origin(t, server(t, name), "--misbehave", "canonical-error-trailers")
		}, `stream: want lowercase trailer names in the body after an error, got "Grpc-Status"`},
		{"streamed_error_trailers_lowercase", "origin writing canonical trailer names", func(t *testing.T, name string) string {
			return serve(t, roleOrigin, &naiveOrigin{upstream: server(t, name), canonicalNames: true})
		}, `want lowercase trailer names in the body after an error, got "Grpc-Message"`},
		{"streamed_error_trailers_lowercase", "streaming origin writing trailers-only fields in canonical case", func(t *testing.T, name string) string {
			return serve(t, roleOrigin, &streamOrigin{upstream: server(t, name), canonicalTrailersOnly: true})
		}, `trailers-only: want the trailer names in the headers lowercase, got "Grpc-`},
		{"streamed_error_trailers_lowercase", "streaming origin repeating the headers in the trailers", func(t *testing.T, name string) string {
			return serve(t, roleOrigin, &streamOrigin{upstream: server(t, name), headersInTrailers: true})
		}, `want header metadata x-probe-header in the headers only, got it in the trailers too`},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.peer, func(t *testing.T) {
			t.Parallel()
			code, out := runClient(t, tt.name, tt.target(t, tt.name))
			if last := lastLine(out); code != 1 || !strings.HasPrefix(last, "FAIL: ") || !strings.Contains(last, tt.want) {
				t.Errorf("exit %d, last line %q; want 1 and a FAIL line containing %q\n%s", code, last, tt.want, out)
			}
		})
	}
}

// The bad peers without their bug carry every case of their kind: the failures above are the
// bugs', not the peers'. (streamOrigin, binary only, is held to the cases it is used for.)
func TestBadPeersPassWithoutTheirBug(t *testing.T) {
	t.Run("stream-origin/streamed_error_trailers_lowercase", func(t *testing.T) {
		t.Parallel()
		const name = "streamed_error_trailers_lowercase"
		wantExit(t, name, serve(t, roleOrigin, &streamOrigin{upstream: playPart(t, roleServer, name)}), 0)
	})
	for _, name := range casesOf(kindChain) {
		t.Run("proxy/"+name, func(t *testing.T) {
			t.Parallel()
			wantExit(t, name, serve(t, roleServer, &badProxy{upstream: playPart(t, roleServer, name)}), 0)
		})
	}
	for _, text := range []bool{false, true} {
		for _, name := range casesOf(kindEdge) {
			t.Run("edge/"+mode(text)+"/"+name, func(t *testing.T) {
				t.Parallel()
				wantExit(t, name, serve(t, roleServer, &naiveEdge{upstream: playPart(t, roleOrigin, name), text: text}), edgeExit(name, text))
			})
		}
	}
	for _, name := range casesOf(kindOrigin) {
		t.Run("origin/"+name, func(t *testing.T) {
			t.Parallel()
			wantExit(t, name, serve(t, roleOrigin, &naiveOrigin{upstream: playPart(t, roleServer, name)}), 0)
		})
	}
}

// grpcServer is a grpc-go TestService server with opts, answering UnaryCall small.
func grpcServer(opts ...grpc.ServerOption) http.Handler {
	s := grpc.NewServer(opts...)
	testpb.RegisterTestServiceServer(s, smallAnswers{})
	return s
}

// body_trailers_lowercase checks an OK answer only: an origin whose error path writes canonical
// names passes it, which is why streamed_error_trailers_lowercase exists (it fails that origin,
// above).
func TestOKTrailersCaseMissesErrorPaths(t *testing.T) {
	const name = "body_trailers_lowercase"
	wantExit(t, name, origin(t, playPart(t, roleServer, name), "--misbehave", "canonical-error-trailers"), 0)
}
