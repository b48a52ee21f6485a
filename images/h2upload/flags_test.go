package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/conformance/h2/h2test"
)

func TestBadFlagsExit2WithOneLineNamingTheFlag(t *testing.T) {
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"-proto", "h2"}, "-addr"},
		{[]string{"-addr", "nohostport"}, "-addr"},
		{[]string{"-addr", "h:1", "-proto", "h3"}, "-proto"},
		{[]string{"-addr", "h:1", "-size", "0"}, "-size"},
		{[]string{"-addr", "h:1", "-size", "ten"}, "-size"},
		{[]string{"-addr", "h:1", "-reps", "0"}, "-reps"},
		{[]string{"-addr", "h:1", "-timeout", "5"}, "-timeout"},
		{[]string{"-addr", "h:1", "-bogus"}, "-bogus"},
		{[]string{"-addr", "h:1", "-ca", "/nonexistent/ca.pem"}, "-ca"},
		{[]string{"-addr", "h:1", "-ca", "x.pem", "-insecure"}, "-insecure"},
		{[]string{"-addr", "h:1", "-keylog", "/nonexistent/dir/keys"}, "-keylog"},
		{[]string{"-addr", "h:1", "stray"}, "stray"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		msg := stderr.String()
		if code != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tt.flag) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line naming %s", tt.args, code, msg, tt.flag)
		}
	}
}

func TestNoServerExits1WithoutResult(t *testing.T) {
	caFile := h2test.CAFile(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there any more: connection refused
	out := filepath.Join(t.TempDir(), "result.json")
	for _, proto := range []string{"h2", "h1"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"-addr", addr, "-ca", caFile, "-proto", proto, "-reps", "3", "-timeout", "2s", "-out", out}, &stdout, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), addr) {
			t.Errorf("%s: exit %d, stderr %q; want 1 naming %s", proto, code, stderr.String(), addr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: result written although nothing connected", proto)
		}
	}
}
