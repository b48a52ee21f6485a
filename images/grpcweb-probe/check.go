package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// checker runs one case's client check against target and narrates it.
type checker struct {
	target string
	rtt    time.Duration
	out    io.Writer
}

// step prints what the check is doing, so a failing cell's log shows how far it got.
func (c *checker) step(format string, args ...any) {
	fmt.Fprintf(c.out, "step: "+format+"\n", args...)
}

// allow is d plus ten round trips: the time checks' margin for the lab's network profile.
func (c *checker) allow(d time.Duration) time.Duration { return d + 10*c.rtt }

// notApplicable is a check that cannot run here (exit 127), such as a text-only case behind a
// binary edge.
type notApplicable struct{ why string }

func (e *notApplicable) Error() string { return e.why }

// failf is a failed check: what was expected and what came.
func failf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// wantStatus checks a call's outcome: code, and the message too unless msg is "".
func wantStatus(err error, code codes.Code, msg string) error {
	s := status.Convert(err)
	if s.Code() != code || (msg != "" && s.Message() != msg) {
		want := codeName(code)
		if msg != "" {
			want += fmt.Sprintf(" %q", msg)
		}
		return failf("want %s, got %s", want, describe(err))
	}
	return nil
}

// describe is a call outcome as code and message.
func describe(err error) string {
	s := status.Convert(err)
	return fmt.Sprintf("%s %q", codeName(s.Code()), s.Message())
}

// codeName is the canonical name (PERMISSION_DENIED, not grpc-go's PermissionDenied).
func codeName(c codes.Code) string { return grpcweb.Code(c).String() }

// verdict prints the check's last line and returns the exit code: 0 pass, 1 fail, 127 not
// applicable.
func verdict(out io.Writer, name string, err error) int {
	var na *notApplicable
	switch {
	case err == nil:
		fmt.Fprintf(out, "PASS: %s\n", name)
		return 0
	case errors.As(err, &na):
		fmt.Fprintf(out, "NOT APPLICABLE: %s: %s\n", name, oneLine(na.why))
		return 127
	}
	fmt.Fprintf(out, "FAIL: %s\n", oneLine(err.Error()))
	return 1
}

// oneLine keeps a message on the verdict's single line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
