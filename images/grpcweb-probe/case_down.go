package main

import (
	"time"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// upstream_down_unavailable, origin_down_unavailable: the hop behind a converter refuses
// connections. The call must end UNAVAILABLE (statuscodes.md) within its deadline; a converter
// that waits for the deadline (DEADLINE_EXCEEDED) or maps the refusal to another code fails.
// The playing side runs without listening (roles.go).

func checkDown(c *checker) error {
	ctx, svc, done, err := c.testCall(downDeadline)
	if err != nil {
		return err
	}
	defer done()
	c.step("UnaryCall with a %v deadline; the far end refuses connections, expecting UNAVAILABLE", downDeadline)
	start := time.Now()
	_, err = svc.UnaryCall(ctx, &testpb.SimpleRequest{ResponseSize: 10})
	c.step("got %s after %v", describe(err), time.Since(start).Round(time.Millisecond))
	return wantStatus(err, codes.Unavailable, "")
}
