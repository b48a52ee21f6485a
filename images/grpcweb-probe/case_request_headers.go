package main

import (
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// request_headers_after_reconversion: the request that reaches the gRPC server after
// gRPC -> gRPC-web -> gRPC must look like gRPC again: POST, a gRPC content type, te: trailers
// and no stale content-length (traefik#9697/#10110: a length kept from the -text body made
// grpc-java reject the call; te dropped on the way). The server lists what is wrong.

const requestHeadersPayload = 1000

func requestHeadersServer() http.Handler {
	play := func(c *rawCall) {
		body, err := c.readBody()
		wrong := requestProblems(c.r, body, err)
		var req testpb.SimpleRequest
		if err == nil {
			if perr := parseMessage(body, &req); perr != nil {
				wrong = append(wrong, "body: "+perr.Error())
			}
		}
		if len(wrong) > 0 {
			c.finish(codes.FailedPrecondition, "wirelab-probe: the request is not gRPC after reconversion: "+strings.Join(wrong, "; "))
			return
		}
		c.sendLast(unaryAnswer(&req))
	}
	return rawHandler(play, nil)
}

// requestProblems lists how r (with body, read up to readErr) differs from a gRPC request.
func requestProblems(r *http.Request, body []byte, readErr error) []string {
	var wrong []string
	if r.Method != http.MethodPost {
		wrong = append(wrong, fmt.Sprintf("method %s (want POST)", r.Method))
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/grpc" && mt != "application/grpc+proto" {
		wrong = append(wrong, fmt.Sprintf("content-type %q (want application/grpc or application/grpc+proto)", r.Header.Values("Content-Type")))
	}
	if te := r.Header.Values("Te"); len(te) != 1 || te[0] != "trailers" {
		wrong = append(wrong, fmt.Sprintf("te %q (want trailers)", te))
	}
	if readErr != nil {
		wrong = append(wrong, fmt.Sprintf("body unreadable after %d bytes: %v", len(body), readErr))
	}
	if cl := r.Header.Values("Content-Length"); len(cl) > 0 && (len(cl) != 1 || cl[0] != strconv.Itoa(len(body))) {
		wrong = append(wrong, fmt.Sprintf("content-length %q but the body had %d bytes", cl, len(body)))
	}
	return wrong
}

func checkRequestHeaders(c *checker) error {
	outcome, _, err := c.unary(fmt.Sprintf("UnaryCall with a %d-byte payload; the server checks the request's method, content type, te and length", requestHeadersPayload),
		&testpb.SimpleRequest{ResponseSize: 10, Payload: &testpb.Payload{Body: pattern(requestHeadersPayload)}})
	if err != nil {
		return err
	}
	if s := status.Convert(outcome); s.Code() == codes.FailedPrecondition { // the server's list, unquoted
		return failf("want OK, got FAILED_PRECONDITION: %s", s.Message())
	}
	return wantStatus(outcome, codes.OK, "")
}
