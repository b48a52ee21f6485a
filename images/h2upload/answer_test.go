package main

import (
	"strings"
	"testing"
)

// The answer is the decimal count, or (a server that cannot count) an echo of the whole body.
func TestVerifyAnswerCountOrEcho(t *testing.T) {
	echo := (&pattern{}).slice(0, maxAnswer)
	for _, c := range []struct {
		name   string
		status int
		body   []byte
		total  int64
		want   string
	}{
		{"count", 200, []byte("5000\n"), 5, ""},
		{"echo", 200, echo, 5000, ""},
		{"short echo", 200, echo, 4999, "nor an echo of the body: 4999 of 5000"},
		{"other bytes", 200, []byte(strings.Repeat("x", maxAnswer)), 5000, "without a byte count"},
		{"wrong count", 200, []byte("4999"), 4, "server counted 4999 bytes, 5000 were sent"},
		{"status", 413, []byte("too large"), 9, "status 413"},
	} {
		got := verifyAnswer(c.status, c.body, c.total, 5000)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
