package main

import (
	"context"
	"fmt"
	"net/http"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"
)

// message_size_limit: grpc-go's default receive limit is 4 MiB inclusive. A chain must carry a
// message of exactly 4194304 bytes and end one of 4194305 with RESOURCE_EXHAUSTED, whichever hop
// refuses it, not with a reset, a truncation or a generic error.

const sizeLimit = 4 << 20 // grpc-go's defaultServerMaxReceiveMessageSize

// sizeLimitServer is a real grpc-go server with default options: the limit played is grpc-go's
// own, not an imitation. grpc.Server serves HTTP/2 requests as an http.Handler.
func sizeLimitServer() http.Handler {
	s := grpc.NewServer()
	testpb.RegisterTestServiceServer(s, smallAnswers{})
	return s
}

// smallAnswers answers UnaryCall with an empty payload whatever the request's size.
type smallAnswers struct {
	testpb.UnimplementedTestServiceServer
}

func (smallAnswers) UnaryCall(context.Context, *testpb.SimpleRequest) (*testpb.SimpleResponse, error) {
	return &testpb.SimpleResponse{}, nil
}

// sizedRequest is a SimpleRequest whose serialized form is exactly size bytes.
func sizedRequest(size int) (*testpb.SimpleRequest, error) {
	req := &testpb.SimpleRequest{Payload: &testpb.Payload{}}
	buf := make([]byte, size)
	n := size
	for range 8 { // the length prefixes' sizes settle in two or three rounds
		req.Payload.Body = buf[:n]
		got := proto.Size(req)
		if got == size {
			return req, nil
		}
		if n += size - got; n < 0 || n > size {
			break
		}
	}
	return nil, fmt.Errorf("no SimpleRequest serializes to exactly %d bytes", size)
}

func checkSizeLimit(c *checker) error {
	svc, done, err := c.testService()
	if err != nil {
		return err
	}
	defer done()
	for _, tc := range []struct {
		size int
		want codes.Code
	}{{sizeLimit, codes.OK}, {sizeLimit + 1, codes.ResourceExhausted}} {
		req, err := sizedRequest(tc.size)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		c.step("UnaryCall with a %d-byte request, expecting %s", tc.size, codeName(tc.want))
		_, err = svc.UnaryCall(ctx, req, grpc.MaxCallSendMsgSize(2*sizeLimit))
		cancel()
		c.step("got %s", describe(err))
		if err := wantStatus(err, tc.want, ""); err != nil {
			return failf("%d-byte request: %v", tc.size, err)
		}
	}
	return nil
}
