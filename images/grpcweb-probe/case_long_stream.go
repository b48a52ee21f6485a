package main

import (
	"fmt"
	"net/http"
	"time"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// long_stream_outlives_proxy_timeouts: a server stream with long gaps outlives the converters'
// timeouts. Default 10 s read/write timeouts killed such streams (improbable#171/#247).

const longStreamMessages = 8

// longStreamPayload is message i's payload, so order and loss show.
func longStreamPayload(i int) string { return fmt.Sprintf("wirelab-probe long stream message %d", i) }

func longStreamServer() http.Handler {
	play := func(c *rawCall) {
		_ = c.read(&testpb.StreamingOutputCallRequest{}) // the pace is the case's, not the request's
		for i := range longStreamMessages {
			if i > 0 && !c.wait(longStreamGap) {
				return
			}
			if c.send(&testpb.StreamingOutputCallResponse{Payload: &testpb.Payload{Body: []byte(longStreamPayload(i))}}) != nil {
				return
			}
		}
		c.finish(codes.OK, "")
	}
	return rawHandler(nil, play)
}

func checkLongStream(c *checker) error {
	ctx, svc, done, err := c.testCall(longStreamMessages*longStreamGap + callTimeout)
	if err != nil {
		return err
	}
	defer done()
	req := &testpb.StreamingOutputCallRequest{}
	for range longStreamMessages {
		req.ResponseParameters = append(req.ResponseParameters, &testpb.ResponseParameters{
			Size: 32, IntervalUs: int32(longStreamGap / time.Microsecond)})
	}
	c.step("StreamingOutputCall: %d messages %v apart, each allowed %v late", longStreamMessages, longStreamGap, c.allow(longStreamSlack))
	last := time.Now()
	stream, err := startStream(ctx, svc, req)
	if err != nil {
		return err
	}
	for i := range longStreamMessages {
		m, err := stream.Recv()
		if err != nil {
			return failf("want message %d of %d, got %s after %v", i+1, longStreamMessages, describe(err), time.Since(last).Round(time.Millisecond))
		}
		gap := time.Duration(0)
		if i > 0 {
			gap = longStreamGap
		}
		took := time.Since(last)
		last = time.Now()
		c.step("message %d after %v", i+1, took.Round(time.Millisecond))
		if got := string(m.GetPayload().GetBody()); got != longStreamPayload(i) {
			return failf("want message %d to be %q, got %q", i+1, longStreamPayload(i), got)
		}
		if limit := gap + c.allow(longStreamSlack); took > limit {
			return failf("want message %d within %v of the previous one, got it after %v", i+1, limit, took.Round(time.Millisecond))
		}
	}
	return streamEnd(c, stream, longStreamMessages)
}
