package grpcweb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"
)

func TestCodeForHTTPStatus(t *testing.T) {
	want := map[int]Code{
		400: Internal, 401: Unauthenticated, 403: PermissionDenied, 404: Unimplemented,
		429: Unavailable, 502: Unavailable, 503: Unavailable, 504: Unavailable,
		200: Unknown, 301: Unknown, 405: Unknown, 500: Unknown, 505: Unknown,
	}
	for status, code := range want {
		if got := CodeForHTTPStatus(status); got != code {
			t.Errorf("HTTP %d -> %v, want %v", status, got, code)
		}
	}
}

func TestCodeForUpstreamError(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	tests := []struct {
		err  error
		want Code
	}{
		{refused, Unavailable},
		{fmt.Errorf("wrapped: %w", &net.OpError{Op: "dial", Err: syscall.EHOSTUNREACH}), Unavailable},
		{&net.DNSError{Err: "no such host", IsNotFound: true}, Unavailable},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), DeadlineExceeded},
		{context.Canceled, Canceled},
		{errors.New("tls: handshake failure"), Unavailable},
	}
	for _, tt := range tests {
		if got := CodeForUpstreamError(tt.err); got != tt.want {
			t.Errorf("%v -> %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestCodeStringAndParse(t *testing.T) {
	if Unavailable.String() != "UNAVAILABLE" || Canceled.String() != "CANCELLED" || Code(99).String() != "CODE(99)" {
		t.Fatal("Code.String")
	}
	for s, want := range map[string]Code{"0": OK, "14": Unavailable, "016": Unauthenticated} {
		if c, ok := ParseCode(s); !ok || c != want {
			t.Errorf("ParseCode(%q) = %v, %v", s, c, ok)
		}
	}
	for _, s := range []string{"", "-1", "1a", " 1", "99999999999"} {
		if _, ok := ParseCode(s); ok {
			t.Errorf("ParseCode(%q) accepted", s)
		}
	}
}

func TestMessageEncoding(t *testing.T) {
	tests := []struct{ raw, enc string }{
		{"plain text ~!", "plain text ~!"},
		{"100%", "100%25"},
		{"\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n",
			"%09%0Atest with whitespace%0D%0Aand Unicode BMP %E2%98%BA and non-BMP %F0%9F%98%88%09%0A"},
		{"\x00\x1f\x7f\xff", "%00%1F%7F%FF"},
	}
	for _, tt := range tests {
		if got := EncodeMessage(tt.raw); got != tt.enc {
			t.Errorf("EncodeMessage(%q) = %q, want %q", tt.raw, got, tt.enc)
		}
		if got := DecodeMessage(tt.enc); got != tt.raw {
			t.Errorf("DecodeMessage(%q) = %q, want %q", tt.enc, got, tt.raw)
		}
	}
	// Invalid escapes are kept, never an error (PROTOCOL-HTTP2.md).
	for enc, raw := range map[string]string{"%": "%", "%4": "%4", "%zz%41": "%zzA", "a%e2%98%ba": "a☺"} {
		if got := DecodeMessage(enc); got != raw {
			t.Errorf("DecodeMessage(%q) = %q, want %q", enc, got, raw)
		}
	}
}
