package main

import (
	"bytes"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestCompatRequestRoundTrip(t *testing.T) {
	want := compatRequest{Protocol: protocolGRPCWeb, HTTPVersion: httpVersion1, UseTLS: true,
		ClientTLSCert: []byte("pem"), MessageReceiveLimit: serverReceiveLimit}
	got, err := parseCompatRequest(want.marshal())
	if err != nil {
		t.Fatal(err)
	}
	if got.Protocol != want.Protocol || got.HTTPVersion != want.HTTPVersion || got.UseTLS != want.UseTLS ||
		string(got.ClientTLSCert) != "pem" || got.MessageReceiveLimit != want.MessageReceiveLimit {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	resp, err := parseCompatResponse(compatResponse{Host: "10.0.0.2", Port: 443}.marshal())
	if err != nil || resp.Host != "10.0.0.2" || resp.Port != 443 {
		t.Fatalf("response round trip: %+v, %v", resp, err)
	}
}

func TestTargetFor(t *testing.T) {
	for _, tc := range []struct {
		req  compatRequest
		want string // variable, or a fragment of the error
	}{
		{compatRequest{Protocol: protocolGRPC, HTTPVersion: httpVersion2, MessageReceiveLimit: serverReceiveLimit}, "GRPC_TARGET"},
		{compatRequest{Protocol: protocolGRPCWeb, HTTPVersion: httpVersion1}, "GRPCWEB_TARGET"},
		{compatRequest{Protocol: protocolGRPCWeb, HTTPVersion: httpVersion2}, "HTTP/1.1 only"},
		{compatRequest{Protocol: protocolConnect, HTTPVersion: httpVersion1}, "HTTP/1.1 only"},
		{compatRequest{Protocol: protocolGRPC, HTTPVersion: httpVersion2, UseTLS: true}, "no TLS"},
		{compatRequest{Protocol: protocolGRPC, HTTPVersion: httpVersion2, MessageReceiveLimit: 1}, "enforces 204800"},
	} {
		v, err := targetFor(tc.req)
		got := v
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.req, got, tc.want)
		}
	}
}

// TestForwardAnswers checks the answer names the target's address and that the forwarder then waits
// (for a signal, which the test does not send: it only checks the answer comes first).
func TestForwardAnswers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var in bytes.Buffer
	_ = writeDelimited(&in, compatRequest{Protocol: protocolGRPC, HTTPVersion: httpVersion2, MessageReceiveLimit: serverReceiveLimit}.marshal())
	outR, outW := io.Pipe()
	env := map[string]string{"GRPC_TARGET": ln.Addr().String()}
	go forward(nil, &in, outW, io.Discard, func(k string) string { return env[k] })
	msg, err := readDelimited(outR)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := parseCompatResponse(msg)
	if err != nil {
		t.Fatal(err)
	}
	if got := net.JoinHostPort(resp.Host, strconv.FormatUint(resp.Port, 10)); got != ln.Addr().String() {
		t.Fatalf("answered %s, want %s", got, ln.Addr())
	}
}

func TestForwardRefuses(t *testing.T) {
	var in, out, errs bytes.Buffer
	_ = writeDelimited(&in, compatRequest{Protocol: protocolConnect, HTTPVersion: httpVersion2}.marshal())
	if code := forward(nil, &in, &out, &errs, func(string) string { return "" }); code != 1 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q", code, out.Bytes())
	}
	if !strings.Contains(errs.String(), "PROTOCOL_CONNECT") {
		t.Fatalf("stderr %q does not name the request", errs.String())
	}
}

// TestRelayRoutes checks that a connection opening with the HTTP/2 preface goes to the h2
// backend, anything else to the HTTP/1.1 one, and that half-closes pass through.
func TestRelayRoutes(t *testing.T) {
	backend := func(name string) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() {
					defer c.Close()
					b, _ := io.ReadAll(c) // until the client's half-close
					_, _ = c.Write(append([]byte(name+":"), b...))
				}()
			}
		}()
		return ln.Addr().String()
	}
	h2, h1 := backend("h2"), backend("h1")
	for _, tc := range []struct{ send, want string }{
		{string(h2Preface) + "frames", "h2:" + string(h2Preface) + "frames"},
		{"POST / HTTP/1.1\r\n\r\n", "h1:POST / HTTP/1.1\r\n\r\n"},
		{"PRI * HTTP/1.1\r\n", "h1:PRI * HTTP/1.1\r\n"},
	} {
		client, server := tcpPair(t)
		go relay(server, h2, h1, io.Discard)
		_, _ = client.Write([]byte(tc.send))
		_ = client.CloseWrite()
		_ = client.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, err := io.ReadAll(client)
		client.Close()
		if err != nil || string(got) != tc.want {
			t.Errorf("sent %q: got %q (%v), want %q", tc.send, got, err, tc.want)
		}
	}
}

func tcpPair(t *testing.T) (*net.TCPConn, net.Conn) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	return c.(*net.TCPConn), s
}

// TestRunSkipsHungCases drives a fake runner: its first run leaves case b outstanding and goes
// quiet; the driver must end it, rerun skipping b, and count b as failed (hung).
func TestRunSkipsHungCases(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "connectconformance")
	script := `#!/bin/bash
skip=
while [ $# -gt 0 ]; do [ "$1" = --skip ] && skip=${2#@}; shift; done
echo 'Sending request for "Suite/a"...'
if [ -z "$skip" ]; then
  echo 'Sending request for "Suite/b"...'
  echo 'Received response for "Suite/a"...'
  exec sleep 60
fi
grep -qx 'Suite/b' "$skip" || { echo "skip file lacks Suite/b"; exit 3; }
echo 'Received response for "Suite/a"...'
echo 'FAILED: Suite/c:'
echo '	some message'
echo 'Total cases: 2'
echo '1 passed, 1 failed'
exit 1
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "grpc-h2c.yaml")
	var out, errs bytes.Buffer
	start := time.Now()
	code := runAll([]string{"--connectconformance", fake, "--conf", conf, "--stall", "500ms", "--log", filepath.Join(dir, "log.txt")}, &out, &errs)
	if code != 1 {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("took %s: the stalled run was not ended promptly", time.Since(start))
	}
	for _, want := range []string{
		"connectconformance grpc-h2c: 3 cases, 1 passed, 2 failed (1 of them hung",
		"  FAILED: Suite/c\n",
		"  HUNG:   Suite/b\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); lines[len(lines)-1] != "connectconformance: 1 passed, 2 failed" {
		t.Errorf("last line %q", lines[len(lines)-1])
	}
}

// Every case a completed run sent is listed with its outcome, and the hung ones too.
func TestWriteCases(t *testing.T) {
	p := filepath.Join(t.TempDir(), "cases.jsonl")
	o := &outcome{label: "grpc-h2c", sent: []string{"a", "b", "c"}, failed: []string{"b", "z"}, hung: []string{"h"}}
	if err := writeCases(p, []*outcome{o}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	want := `{"config":"grpc-h2c","case":"a","result":"passed"}
{"config":"grpc-h2c","case":"b","result":"failed"}
{"config":"grpc-h2c","case":"c","result":"passed"}
{"config":"grpc-h2c","case":"z","result":"failed"}
{"config":"grpc-h2c","case":"h","result":"hung"}
`
	if string(data) != want {
		t.Errorf("cases.jsonl:\n%s\nwant\n%s", data, want)
	}
}
