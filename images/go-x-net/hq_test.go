package main

import (
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseRequest(t *testing.T) {
	good := map[string]string{
		"GET /abc\r\n":      "/abc",
		"GET /abc\n":        "/abc",
		"GET /abc":          "/abc",
		"GET /dir/file\r\n": "/dir/file",
	}
	for in, want := range good {
		got, err := parseRequest(in)
		if err != nil || got != want {
			t.Errorf("parseRequest(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "\r\n", "POST /abc\r\n", "get /abc\r\n", "GET\r\n", "GET abc\r\n",
		"GET /a b\r\n", "GET /a\x00b\r\n", "GET \r\n", "GET /a\r\r\n"} {
		if got, err := parseRequest(in); err == nil {
			t.Errorf("parseRequest(%q) = %q, want an error", in, got)
		}
	}
}

func TestReadRequest(t *testing.T) {
	// Byte by byte: the stream may deliver the request line in pieces.
	got, err := readRequest(iotest.OneByteReader(strings.NewReader("GET /x\r\nignored")))
	if err != nil || got != "/x" {
		t.Errorf("readRequest = %q, %v; want /x", got, err)
	}
	// FIN without a line end still completes the request.
	if got, err := readRequest(strings.NewReader("GET /y")); err != nil || got != "/y" {
		t.Errorf("readRequest without CRLF = %q, %v; want /y", got, err)
	}
	if _, err := readRequest(strings.NewReader("")); err == nil {
		t.Error("readRequest of an empty stream: want an error")
	}
	long := "GET /" + strings.Repeat("a", maxRequestLen) + "\r\n"
	if _, err := readRequest(strings.NewReader(long)); err == nil {
		t.Error("readRequest of an over-long line: want an error")
	}
	if _, err := readRequest(iotest.ErrReader(iotest.ErrTimeout)); err == nil {
		t.Error("readRequest of a failing stream: want an error")
	}
}

func TestLocalName(t *testing.T) {
	good := map[string]string{
		"/abc":      "abc",
		"/dir/file": "dir/file",
		"//abc":     "abc",
		"/./abc":    "abc",
		"/abc?x=1":  "abc",
		"/a..b":     "a..b",
		"/%2e%2e":   "%2e%2e", // not decoded: a literal (harmless) name inside the root
	}
	for in, want := range good {
		got, err := localName(in)
		if err != nil || got != want {
			t.Errorf("localName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "/", "/.", "/..", "/../etc/passwd", "/a/../../etc/passwd",
		"/a/..", "/dir/", "/a\\..\\b", "/a\x00"} {
		if got, err := localName(in); err == nil {
			t.Errorf("localName(%q) = %q, want an error", in, got)
		}
	}
}
