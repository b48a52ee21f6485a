package main

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/grpclog"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
)

// interop's Do* functions report failure with grpclog Fatal, which exits the process. This logger
// panics instead (grpclog only calls os.Exit after the logger returns), and runInterop turns the
// panic into a test failure.
type panicOnFatal struct{}

type interopFailure string

func (panicOnFatal) Info(...any)               {}
func (panicOnFatal) Infoln(...any)             {}
func (panicOnFatal) Infof(string, ...any)      {}
func (panicOnFatal) Warning(...any)            {}
func (panicOnFatal) Warningln(...any)          {}
func (panicOnFatal) Warningf(string, ...any)   {}
func (panicOnFatal) Error(...any)              {}
func (panicOnFatal) Errorln(...any)            {}
func (panicOnFatal) Errorf(string, ...any)     {}
func (panicOnFatal) Fatal(a ...any)            { panic(interopFailure(fmt.Sprint(a...))) }
func (panicOnFatal) Fatalln(a ...any)          { panic(interopFailure(fmt.Sprint(a...))) }
func (panicOnFatal) Fatalf(f string, a ...any) { panic(interopFailure(fmt.Sprintf(f, a...))) }
func (panicOnFatal) V(int) bool                { return false }

func init() { grpclog.SetLoggerV2(panicOnFatal{}) }

func runInterop(t *testing.T, name string, do func()) {
	t.Run(name, func(t *testing.T) {
		defer func() {
			if r := recover(); r != nil {
				if f, ok := r.(interopFailure); ok {
					t.Fatalf("%s failed: %s", name, f)
				}
				panic(r)
			}
		}()
		do()
	})
}

// interopCases are the grpc interop cases the Go client implements that need no credentials,
// compression or load balancing.
func interopCases(ctx context.Context, cc *grpc.ClientConn) map[string]func() {
	tc := testgrpc.NewTestServiceClient(cc)
	return map[string]func(){
		"empty_unary":                 func() { interop.DoEmptyUnaryCall(ctx, tc) },
		"large_unary":                 func() { interop.DoLargeUnaryCall(ctx, tc) },
		"client_streaming":            func() { interop.DoClientStreaming(ctx, tc) },
		"server_streaming":            func() { interop.DoServerStreaming(ctx, tc) },
		"ping_pong":                   func() { interop.DoPingPong(ctx, tc) },
		"empty_stream":                func() { interop.DoEmptyStream(ctx, tc) },
		"cancel_after_begin":          func() { interop.DoCancelAfterBegin(ctx, tc) },
		"cancel_after_first_response": func() { interop.DoCancelAfterFirstResponse(ctx, tc) },
		"timeout_on_sleeping_server":  func() { interop.DoTimeoutOnSleepingServer(ctx, tc) },
		"status_code_and_message":     func() { interop.DoStatusCodeAndMessage(ctx, tc) },
		"special_status_message":      func() { interop.DoSpecialStatusMessage(ctx, tc) },
		"custom_metadata":             func() { interop.DoCustomMetadata(ctx, tc) },
		"unimplemented_method":        func() { interop.DoUnimplementedMethod(ctx, cc) },
		"unimplemented_service": func() {
			interop.DoUnimplementedService(ctx, testgrpc.NewUnimplementedServiceClient(cc))
		},
	}
}

// TestInteropThroughChain runs the interop cases through edge -> HTTP/1.1 -> origin, with binary
// and text gRPC-web on the middle hop, cleartext and TLS on every hop.
func TestInteropThroughChain(t *testing.T) {
	for _, c := range []struct {
		name string
		ch   chain
	}{
		{"h2c-binary", chain{}},
		{"h2c-text", chain{text: true}},
		{"tls-binary", chain{tls: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := c.ch
			cc := ch.start(t)
			ctx := testContext(t)
			for name, do := range interopCases(ctx, cc) {
				runInterop(t, name, do)
			}
		})
	}
}
