package main

import (
	"context"
	"strconv"
	"time"

	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"

	"github.com/wirelab/wirelab/internal/observed"
)

// deadline_reaches_server: the client's deadline must reach the server (PROTOCOL-HTTP2.md Timeout:
// "gRPC servers track the deadline of the RPC as communicated by Timeout", and without it "a
// server should assume an infinite timeout"). A converter that drops grpc-timeout still ends the
// call at the deadline itself, so the client sees nothing wrong; the server keeps working on a
// call nobody waits for. Each call tells the server when it started and the deadline it set
// (wall clock, observed.SentKey and DeadlineKey); the server records the time it had left at the
// start of its handler, and the verdict (internal/observed.Judge) holds it between the client's
// deadline and that minus the measured trip.

// deadlineService is the case's grpc-go server.
type deadlineService struct {
	testgrpc.UnimplementedTestServiceServer
	obs *observer
}

func newDeadlineService(obs *observer) testgrpc.TestServiceServer { return deadlineService{obs: obs} }

// UnaryCall records the call's deadline as the handler sees it, and answers.
func (s deadlineService) UnaryCall(ctx context.Context, _ *testpb.SimpleRequest) (*testpb.SimpleResponse, error) {
	start := time.Now()
	d := &observed.Deadline{StartUnixNS: start.UnixNano(),
		ClientSentUnixNS: unixNanos(ctx, observed.SentKey), ClientDeadlineUnixNS: unixNanos(ctx, observed.DeadlineKey)}
	if dl, ok := ctx.Deadline(); ok {
		d.Present, d.RemainingNS = true, int64(dl.Sub(start))
	}
	cs := s.obs.begin(ctx, "UnaryCall")
	s.obs.end(cs, observed.EndAnswered, nil, func(l *observed.Line) { l.Deadline = d })
	return &testpb.SimpleResponse{}, nil
}

// unixNanos is the request metadata key as Unix nanoseconds (0 if missing or malformed).
func unixNanos(ctx context.Context, key string) int64 {
	v := metadata.ValueFromIncomingContext(ctx, key)
	if len(v) == 0 {
		return 0
	}
	n, _ := strconv.ParseInt(v[0], 10, 64)
	return n
}

func checkDeadline(c *checker) error {
	svc, done, err := c.testService()
	if err != nil {
		return err
	}
	defer done()
	for _, dc := range observed.DeadlineCalls {
		sent := time.Now()
		deadline := sent.Add(dc.Timeout)
		ctx := metadata.AppendToOutgoingContext(named(context.Background(), dc.Name),
			observed.SentKey, strconv.FormatInt(sent.UnixNano(), 10), observed.DeadlineKey, strconv.FormatInt(deadline.UnixNano(), 10))
		ctx, cancel := context.WithDeadline(ctx, deadline)
		c.step("%s: UnaryCall with a %v deadline, expecting OK", dc.Name, dc.Timeout)
		_, err := svc.UnaryCall(ctx, &testpb.SimpleRequest{})
		cancel()
		c.step("%s: got %s after %v", dc.Name, describe(err), time.Since(sent).Round(time.Microsecond))
		if err != nil {
			return failf("%s: want OK, got %s", dc.Name, describe(err))
		}
	}
	c.step("the verdict is the server's: the deadlines it saw (%s)", observed.File)
	return nil
}
