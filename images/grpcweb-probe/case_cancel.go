package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/wirelab/wirelab/internal/observed"
)

// client_cancel_reaches_server: a call the client cancels must reach the server as a
// cancellation (PROTOCOL-HTTP2.md Client Cancellation: RST_STREAM CANCEL), never as the request's
// end of stream: a server that sees a clean end answers OK and commits a call the client gave up.
// Over the HTTP/1.1 hop a cancelled request is a body cut off (RFC 9112 §7.1: an incomplete
// chunked body is an incomplete message), or a connection closed mid-response; an origin that
// ignores the read error forwards the cut as a clean end and never cancels upstream. The verdict
// is the server's (internal/observed.Judge): the client cannot see what the server committed.
//
// Three calls, each named for the server by observed.CallKey: a control client stream that ends
// normally, a client stream cut off after its first message, and a server stream abandoned after
// its first answer. The client waits for the server's points (first message, end) over await
// calls through the same chain, so the cut comes after the server has the call where the chain
// streams, and the client leaves only once the server has settled.

// awaitKey asks the cancel service's UnaryCall to wait for "<call> <point>".
const awaitKey = "x-probe-await"

// awaitLimit bounds how long the server holds an await call whose deadline did not arrive.
const awaitLimit = time.Minute

// cancelService is the case's grpc-go server.
type cancelService struct {
	testgrpc.UnimplementedTestServiceServer
	obs *observer
}

func newCancelService(obs *observer) testgrpc.TestServiceServer { return cancelService{obs: obs} }

// StreamingInputCall (control, cut) reads the stream to its end or its cancellation.
func (s cancelService) StreamingInputCall(stream testgrpc.TestService_StreamingInputCallServer) error {
	cs := s.obs.begin(stream.Context(), "StreamingInputCall")
	total := 0
	for {
		m, err := stream.Recv()
		if err == io.EOF {
			s.obs.end(cs, observed.EndEOS, nil, nil)
			return stream.SendAndClose(&testpb.StreamingInputCallResponse{AggregatedPayloadSize: int32(total)})
		}
		if err != nil {
			end := observed.EndFailed
			if stream.Context().Err() != nil {
				end = observed.EndCancelled
			}
			s.obs.end(cs, end, err, nil)
			return err
		}
		total += len(m.GetPayload().GetBody())
		s.obs.message(cs)
	}
}

// StreamingOutputCall (abandon) answers once and holds the call until it is cancelled.
func (s cancelService) StreamingOutputCall(req *testpb.StreamingOutputCallRequest, stream testgrpc.TestService_StreamingOutputCallServer) error {
	cs := s.obs.begin(stream.Context(), "StreamingOutputCall")
	s.obs.message(cs)
	if err := stream.Send(&testpb.StreamingOutputCallResponse{Payload: &testpb.Payload{Body: pattern(10)}}); err != nil {
		s.obs.end(cs, observed.EndCancelled, err, nil)
		return err
	}
	<-stream.Context().Done()
	s.obs.end(cs, observed.EndCancelled, stream.Context().Err(), nil)
	return status.FromContextError(stream.Context().Err()).Err()
}

// UnaryCall is the await: it answers, with the server's record of the call so far, once the
// call named in awaitKey reached the point named there.
func (s cancelService) UnaryCall(ctx context.Context, _ *testpb.SimpleRequest) (*testpb.SimpleResponse, error) {
	v := metadata.ValueFromIncomingContext(ctx, awaitKey)
	name, point, ok := strings.Cut(strings.Join(v, ""), " ")
	if !ok || (point != pointMessage && point != pointEnd) {
		return nil, status.Errorf(codes.InvalidArgument, "wirelab-probe: %s %q: want \"<call> message|end\"", awaitKey, v)
	}
	ctx, cancel := context.WithTimeout(ctx, awaitLimit)
	defer cancel()
	line, ok := s.obs.await(ctx, name, point)
	if !ok {
		return nil, status.Errorf(codes.DeadlineExceeded, "wirelab-probe: no %s of call %s yet", point, name)
	}
	b, _ := json.Marshal(line)
	return &testpb.SimpleResponse{Payload: &testpb.Payload{Body: b}}, nil
}

// named tags ctx's calls with name for the server.
func named(ctx context.Context, name string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, observed.CallKey, name)
}

func checkCancel(c *checker) error {
	svc, done, err := c.testService()
	if err != nil {
		return err
	}
	defer done()
	await := func(name, point string, within time.Duration) {
		ctx, cancel := context.WithTimeout(metadata.AppendToOutgoingContext(context.Background(), awaitKey, name+" "+point), within)
		defer cancel()
		resp, err := svc.UnaryCall(ctx, &testpb.SimpleRequest{})
		if err != nil {
			c.step("server: no %s of the %s call within %v (%s)", point, name, within, describe(err))
			return
		}
		c.step("server: %s", resp.GetPayload().GetBody())
	}
	if err := cancelControl(c, svc); err != nil {
		return err
	}
	if err := cancelCut(c, svc, await); err != nil {
		return err
	}
	if err := cancelAbandon(c, svc, await); err != nil {
		return err
	}
	c.step("the verdict is the server's: what it saw of the cut and abandoned calls (%s)", observed.File)
	return nil
}

// cancelControl: a client stream of two messages that ends normally.
func cancelControl(c *checker, svc testgrpc.TestServiceClient) error {
	ctx, cancel := context.WithTimeout(named(context.Background(), observed.CallControl), callTimeout)
	defer cancel()
	c.step("control: StreamingInputCall with %d messages (10 and 20 bytes), then its end; expecting OK, 30 bytes", observed.ControlMessages)
	stream, err := svc.StreamingInputCall(ctx)
	if err != nil {
		return failf("control: want the stream to start, got %s", describe(err))
	}
	for _, n := range []int{10, 20} {
		if err := stream.Send(&testpb.StreamingInputCallRequest{Payload: &testpb.Payload{Body: pattern(n)}}); err != nil {
			break // the status says why
		}
	}
	resp, err := stream.CloseAndRecv()
	c.step("control: got %s, %d bytes", describe(err), resp.GetAggregatedPayloadSize())
	if err != nil || resp.GetAggregatedPayloadSize() != 30 {
		return failf("control: want OK with an aggregated size of 30, got %s, %d", describe(err), resp.GetAggregatedPayloadSize())
	}
	return nil
}

// cancelCut: a client stream cancelled after its first message, its request still open. Where the
// chain streams, the cut comes once the server has the message; a chain that holds the body until
// its end gets the cut after cutWait.
func cancelCut(c *checker, svc testgrpc.TestServiceClient, await func(name, point string, within time.Duration)) error {
	ctx, cut := context.WithCancel(named(context.Background(), observed.CallCut))
	defer cut()
	c.step("cut: StreamingInputCall, one message, then cancelled with the request still open")
	stream, err := svc.StreamingInputCall(ctx)
	if err != nil {
		return failf("cut: want the stream to start, got %s", describe(err))
	}
	if err := stream.Send(&testpb.StreamingInputCallRequest{Payload: &testpb.Payload{Body: pattern(10)}}); err != nil && err != io.EOF {
		return failf("cut: sending the first message: %v", err)
	}
	await(observed.CallCut, pointMessage, c.allow(cutWait))
	cut()
	// RecvMsg, not CloseAndRecv: closing the send side could still send the end of stream.
	err = stream.RecvMsg(new(testpb.StreamingInputCallResponse))
	c.step("cut: cancelled, got %s", describe(err))
	if status.Code(err) != codes.Canceled {
		return failf("cut: want CANCELLED after the cancel, got %s", describe(err))
	}
	await(observed.CallCut, pointEnd, c.allow(settleWait))
	return nil
}

// cancelAbandon: a server stream cancelled after its first answer (its request complete).
func cancelAbandon(c *checker, svc testgrpc.TestServiceClient, await func(name, point string, within time.Duration)) error {
	ctx, abandon := context.WithTimeout(named(context.Background(), observed.CallAbandon), callTimeout)
	defer abandon()
	c.step("abandon: StreamingOutputCall, cancelled after the first answer")
	stream, err := svc.StreamingOutputCall(ctx, &testpb.StreamingOutputCallRequest{})
	if err != nil {
		return failf("abandon: want the stream to start, got %s", describe(err))
	}
	if _, err := stream.Recv(); err != nil {
		return failf("abandon: want the first answer, got %s", describe(err))
	}
	abandon()
	_, err = stream.Recv()
	c.step("abandon: cancelled, got %s", describe(err))
	if status.Code(err) != codes.Canceled && !errors.Is(err, context.Canceled) {
		return failf("abandon: want CANCELLED after the cancel, got %s", describe(err))
	}
	await(observed.CallAbandon, pointEnd, c.allow(settleWait))
	return nil
}
