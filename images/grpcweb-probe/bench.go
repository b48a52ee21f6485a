package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// The bench case measures what a chain costs against grpc-go's interop server: sequential unary
// latency for 1 KB and 64 KB messages both ways, then server-streaming throughput of 64 KB
// messages. The suite divides each number by the direct chain's (internal/grpcwebsuite).

// metric is one benchmark number, one JSON line in --bench-out.
type metric struct {
	Metric string  `json:"metric"`
	Value  float64 `json:"value"`
}

const (
	benchStreamSize     = 64 << 10
	benchStreamMessages = 64 // per call: long enough to measure the stream, not the call setup
)

func runBench(ctx context.Context, c *checker, cfg config) error {
	svc, done, err := c.testService()
	if err != nil {
		return err
	}
	defer done()
	dur := time.Duration(cfg.benchSeconds * float64(time.Second))
	c.step("warm-up: %v of 1 KB calls", min(dur, time.Second))
	if _, err := unaryLatencies(ctx, svc, 1<<10, min(dur, time.Second)); err != nil {
		return err
	}
	var all []metric
	for _, size := range []struct {
		name  string
		bytes int
	}{{"1k", 1 << 10}, {"64k", 64 << 10}} {
		c.step("unary %s: sequential calls for %v", size.name, dur)
		lat, err := unaryLatencies(ctx, svc, size.bytes, dur)
		if err != nil {
			return err
		}
		all = append(all, latencyMetrics("unary_"+size.name, lat)...)
	}
	c.step("streaming: %d-byte messages for %v", benchStreamSize, dur)
	bytes, messages, took, err := streamThroughput(ctx, svc, dur)
	if err != nil {
		return err
	}
	all = append(all, metric{"stream_64k_mb_per_s", float64(bytes) / 1e6 / took.Seconds()},
		metric{"stream_64k_messages", float64(messages)})
	return writeMetrics(c.out, cfg.benchOut, all)
}

// unaryLatencies makes sequential UnaryCalls of size bytes each way for dur.
func unaryLatencies(ctx context.Context, svc testpb.TestServiceClient, size int, dur time.Duration) ([]time.Duration, error) {
	req := &testpb.SimpleRequest{ResponseSize: int32(size), Payload: &testpb.Payload{Body: pattern(size)}}
	var lat []time.Duration
	for start := time.Now(); time.Since(start) < dur; {
		callCtx, cancel := context.WithTimeout(ctx, callTimeout)
		t := time.Now()
		resp, err := svc.UnaryCall(callCtx, req)
		cancel()
		if err != nil {
			return nil, failf("bench: want OK for a %d-byte UnaryCall, got %s", size, describe(err))
		}
		if len(resp.GetPayload().GetBody()) != size {
			return nil, failf("bench: want a %d-byte answer, got %d bytes", size, len(resp.GetPayload().GetBody()))
		}
		lat = append(lat, time.Since(t))
	}
	return lat, nil
}

// latencyMetrics are p50, p99 (nearest rank), mean in microseconds and the call count.
func latencyMetrics(prefix string, lat []time.Duration) []metric {
	slices.Sort(lat)
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	rank := func(p float64) time.Duration { return lat[max(0, int(p*float64(len(lat))+0.999999)-1)] }
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	return []metric{
		{prefix + "_p50_us", us(rank(0.50))},
		{prefix + "_p99_us", us(rank(0.99))},
		{prefix + "_mean_us", us(sum / time.Duration(len(lat)))},
		{prefix + "_count", float64(len(lat))},
	}
}

// streamThroughput runs StreamingOutputCalls of 64 KB messages back to back for dur and counts
// the payload bytes received.
func streamThroughput(ctx context.Context, svc testpb.TestServiceClient, dur time.Duration) (bytes, messages int64, took time.Duration, err error) {
	req := &testpb.StreamingOutputCallRequest{}
	for range benchStreamMessages {
		req.ResponseParameters = append(req.ResponseParameters, &testpb.ResponseParameters{Size: benchStreamSize})
	}
	start := time.Now()
	for time.Since(start) < dur {
		callCtx, cancel := context.WithTimeout(ctx, callTimeout)
		stream, err := svc.StreamingOutputCall(callCtx, req)
		for err == nil {
			var m *testpb.StreamingOutputCallResponse
			if m, err = stream.Recv(); err == nil {
				bytes += int64(len(m.GetPayload().GetBody()))
				messages++
			}
		}
		cancel()
		if err != io.EOF {
			return 0, 0, 0, failf("bench: want OK for a StreamingOutputCall, got %s", describe(err))
		}
	}
	return bytes, messages, time.Since(start), nil
}

// writeMetrics prints each metric as a JSON line and writes them all to path.
func writeMetrics(out io.Writer, path string, ms []metric) error {
	var lines []byte
	for _, m := range ms {
		line, _ := json.Marshal(m)
		lines = append(append(lines, line...), '\n')
	}
	if _, err := out.Write(lines); err != nil {
		return err
	}
	if err := os.WriteFile(path, lines, 0o644); err != nil {
		return fmt.Errorf("--bench-out: %v", err)
	}
	return nil
}
