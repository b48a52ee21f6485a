package main

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

const limit = 64 << 10

// sized returns the largest body length n for which size(n) <= want, and whether it is exact.
func sized(want int, size func(n int) int) (int, bool) {
	n := want
	for size(n) > want {
		n--
	}
	return n, size(n) == want
}

// requestOf is a SimpleRequest whose serialized size is exactly bytes.
func requestOf(t *testing.T, bytes int) *testpb.SimpleRequest {
	t.Helper()
	mk := func(n int) *testpb.SimpleRequest {
		return &testpb.SimpleRequest{ResponseSize: 1, Payload: &testpb.Payload{Body: make([]byte, n)}}
	}
	n, ok := sized(bytes, func(n int) int { return proto.Size(mk(n)) })
	if !ok {
		t.Fatalf("no request of exactly %d bytes", bytes)
	}
	return mk(n)
}

// responseAsking is a request for a SimpleResponse of exactly bytes.
func responseAsking(t *testing.T, bytes int) *testpb.SimpleRequest {
	t.Helper()
	n, ok := sized(bytes, func(n int) int {
		return proto.Size(&testpb.SimpleResponse{Payload: &testpb.Payload{Body: make([]byte, n)}})
	})
	if !ok {
		t.Fatalf("no response of exactly %d bytes", bytes)
	}
	return &testpb.SimpleRequest{ResponseSize: int32(n)}
}

// TestMaxMessageBytes: a message of exactly --max-message-bytes passes, one byte more ends that
// call with RESOURCE_EXHAUSTED from the converter, in both directions and at either converter.
func TestMaxMessageBytes(t *testing.T) {
	flag := []string{"--max-message-bytes", itoa(limit)}
	for name, c := range map[string]*chain{"edge": {edgeArgs: flag}, "origin": {originArgs: flag}} {
		tc := testgrpc.NewTestServiceClient(c.start(t))
		for _, size := range []int{limit, limit + 1} {
			for dir, req := range map[string]*testpb.SimpleRequest{"request": requestOf(t, size), "response": responseAsking(t, size)} {
				_, err := tc.UnaryCall(testContext(t), req)
				st := status.Convert(err)
				switch {
				case size <= limit && err != nil:
					t.Errorf("%s limit, %s of %d bytes: %v", name, dir, size, err)
				case size > limit && (st.Code() != codes.ResourceExhausted || !strings.Contains(st.Message(), "--max-message-bytes")):
					t.Errorf("%s limit, %s of %d bytes: %v %q, want RESOURCE_EXHAUSTED from the converter", name, dir, size, st.Code(), st.Message())
				}
			}
		}
		// The connection and the converters are still fine after a refused message.
		if _, err := tc.EmptyCall(testContext(t), &testpb.Empty{}); err != nil {
			t.Errorf("%s limit: call after the refusals: %v", name, err)
		}
	}
}
