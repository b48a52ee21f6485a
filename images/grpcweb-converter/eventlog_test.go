package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"
)

func TestEventLog(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "events.jsonl")
	c := &chain{edgeArgs: []string{"--log", logFile}}
	tc := testgrpc.NewTestServiceClient(c.start(t))
	req := &testpb.SimpleRequest{ResponseSize: 10, Payload: &testpb.Payload{Body: make([]byte, 20)}}
	resp, err := tc.UnaryCall(testContext(t), req)
	if err != nil {
		t.Fatal(err)
	}
	tc.UnaryCall(testContext(t), failedPrecondition)

	f, err := os.Open(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []event
	for lines := bufio.NewScanner(f); lines.Scan(); {
		var e event
		if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
			t.Fatalf("line %q: %v", lines.Text(), err)
		}
		events = append(events, e)
	}
	if len(events) != 2 {
		t.Fatalf("%d events, want 2: %+v", len(events), events)
	}
	ok, failed := events[0], events[1]
	if ok.Mode != "edge" || ok.Method != unaryPath || ok.Status != 0 || ok.Code != "OK" ||
		ok.BytesIn != int64(proto.Size(req)) || ok.BytesOut != int64(proto.Size(resp)) || ok.DurationMS <= 0 || ok.Time == "" {
		t.Errorf("first event %+v", ok)
	}
	if failed.Status != 9 || failed.Code != "FAILED_PRECONDITION" || failed.Message != "not yet ☺" {
		t.Errorf("second event %+v", failed)
	}
}
