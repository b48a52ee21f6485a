package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
)

// The checks' calls through a real gRPC client (grpc-go): what the chain does to them is what a
// gRPC application would see.

// testService connects a grpc-go client (h2c, prior knowledge) to the target. passthrough: the
// target is dialled as given, without grpc-go's DNS resolver and its SRV/TXT lookups.
func (c *checker) testService() (testpb.TestServiceClient, func(), error) {
	cc, err := grpc.NewClient("passthrough:///"+c.target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, nil, err
	}
	return testpb.NewTestServiceClient(cc), func() { cc.Close() }, nil
}

// testCall is testService with a context for the check's calls that ends after timeout, so a
// stalled chain fails the check instead of hanging it; done releases both.
func (c *checker) testCall(timeout time.Duration) (context.Context, testpb.TestServiceClient, func(), error) {
	svc, closeSvc, err := c.testService()
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	return ctx, svc, func() { cancel(); closeSvc() }, nil
}

// unary makes one UnaryCall of req within callTimeout between two step lines: expect (what the
// case plays and wants) before, what came after, with the trailers named in show. outcome is the
// call's status (nil: OK); err only a client that could not be made.
func (c *checker) unary(expect string, req *testpb.SimpleRequest, show ...string) (outcome error, tr metadata.MD, err error) {
	ctx, svc, done, err := c.testCall(callTimeout)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	c.step("%s", expect)
	_, outcome = svc.UnaryCall(ctx, req, grpc.Trailer(&tr))
	got := "got " + describe(outcome)
	for _, name := range show {
		got += fmt.Sprintf(", %s %q", name, tr[name])
	}
	c.step("%s", got)
	return outcome, tr, nil
}

// unaryWantStatus is a whole check: one UnaryCall of req (see unary) that must end with code, and
// with msg too unless it is "".
func (c *checker) unaryWantStatus(expect string, req *testpb.SimpleRequest, code codes.Code, msg string) error {
	outcome, _, err := c.unary(expect, req)
	if err != nil {
		return err
	}
	return wantStatus(outcome, code, msg)
}

// unaryOK is unary for a call that must end OK; it returns the trailers that came.
func (c *checker) unaryOK(expect string, req *testpb.SimpleRequest, show ...string) (metadata.MD, error) {
	outcome, tr, err := c.unary(expect, req, show...)
	if err != nil {
		return nil, err
	}
	return tr, wantStatus(outcome, codes.OK, "")
}

// startStream starts a StreamingOutputCall; a stream that does not start fails the check.
func startStream(ctx context.Context, svc testpb.TestServiceClient, req *testpb.StreamingOutputCallRequest) (grpc.ServerStreamingClient[testpb.StreamingOutputCallResponse], error) {
	stream, err := svc.StreamingOutputCall(ctx, req)
	if err != nil {
		return nil, failf("want the stream to start, got %s", describe(err))
	}
	return stream, nil
}

// streamEnd checks that a StreamingOutputCall ends OK after the n messages received.
func streamEnd(c *checker, s grpc.ServerStreamingClient[testpb.StreamingOutputCallResponse], n int) error {
	_, err := s.Recv()
	switch {
	case err == nil:
		return failf("want the stream to end OK after %d messages, got another message", n)
	case err != io.EOF:
		return failf("want the stream to end OK after %d messages, got %s", n, describe(err))
	}
	c.step("stream ended OK")
	return nil
}
