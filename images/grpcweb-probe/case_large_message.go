package main

import (
	"bytes"
	"net/http"
	"time"

	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// large_message_flushed: a streamed message larger than ~4 KB is passed on at once, not held
// until the next one arrives (grpc-web#820: a buffered writer flushed only when full).

const (
	largeMessagePayload  = 6000
	largeMessageFollowUp = 10
)

func largeMessageServer() http.Handler {
	play := func(c *rawCall) {
		_ = c.read(&testpb.StreamingOutputCallRequest{})
		if c.send(&testpb.StreamingOutputCallResponse{Payload: &testpb.Payload{Body: pattern(largeMessagePayload)}}) != nil {
			return
		}
		if !c.wait(largeMessagePause) {
			return
		}
		c.sendLast(&testpb.StreamingOutputCallResponse{Payload: &testpb.Payload{Body: pattern(largeMessageFollowUp)}})
	}
	return rawHandler(nil, play)
}

func checkLargeMessage(c *checker) error {
	ctx, svc, done, err := c.testCall(largeMessagePause + callTimeout)
	if err != nil {
		return err
	}
	defer done()
	within := c.allow(largeMessageWithin)
	c.step("StreamingOutputCall: a %d-byte message, then %v later a second; the first is due within %v",
		largeMessagePayload, largeMessagePause, within)
	start := time.Now()
	stream, err := startStream(ctx, svc, &testpb.StreamingOutputCallRequest{ResponseParameters: []*testpb.ResponseParameters{
		{Size: largeMessagePayload}, {Size: largeMessageFollowUp, IntervalUs: int32(largeMessagePause / time.Microsecond)}}})
	if err != nil {
		return err
	}
	for i, size := range []int{largeMessagePayload, largeMessageFollowUp} {
		m, err := stream.Recv()
		if err != nil {
			return failf("want message %d (%d bytes), got %s", i+1, size, describe(err))
		}
		took := time.Since(start)
		c.step("message %d (%d bytes) after %v", i+1, len(m.GetPayload().GetBody()), took.Round(time.Millisecond))
		if !bytes.Equal(m.GetPayload().GetBody(), pattern(size)) {
			return failf("want message %d to carry the %d-byte payload sent, got %d bytes", i+1, size, len(m.GetPayload().GetBody()))
		}
		if i == 0 && took > within {
			return failf("want the %d-byte message within %v, got it after %v (held until more data came?)", size, within, took.Round(time.Millisecond))
		}
	}
	return streamEnd(c, stream, 2)
}
