package main

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

var smallH1Upload = []string{"-proto", "h1", "-size", strconv.Itoa(testSize), "-reps", "1"}

func TestH1WrongCountFails(t *testing.T) {
	addr, caFile := startXNetServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "12345")
	})
	code, stderr, res := runUpload(t, addr, caFile, append(smallH1Upload, "-timeout", "10s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if r := oneRep(t, res); r.OK || !strings.Contains(r.Reason, "12345") || r.H2 != nil {
		t.Errorf("ok=%v reason %q h2 %v, want a failure naming 12345 and no h2 record", r.OK, r.Reason, r.H2)
	}
}

func TestH1TimeoutFails(t *testing.T) {
	addr, caFile := startXNetServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers; ends when the client gives up
	})
	code, stderr, res := runUpload(t, addr, caFile, append(smallH1Upload, "-timeout", "500ms")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if r := oneRep(t, res); r.OK || !strings.Contains(r.Reason, "timed out after 500ms") {
		t.Errorf("ok=%v reason %q, want a timeout", r.OK, r.Reason)
	}
}
