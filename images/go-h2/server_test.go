package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/wirelab/wirelab/internal/certs"
)

func TestSupport(t *testing.T) {
	for _, c := range []struct {
		role, testcase string
		code           int
	}{
		{"server", "h2", 0},
		{"server", "transfer", 127},
		{"server", "", 127},
		{"client", "h2", 127},
		{"", "h2", 1},
	} {
		if code, _ := support(c.role, c.testcase); code != c.code {
			t.Errorf("support(%q, %q) = %d, want %d", c.role, c.testcase, code, c.code)
		}
	}
}

// TestServe: one server answers h2 and http/1.1 on the same port, serves / and files, counts
// uploads and writes the keylog.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	c := config{www: filepath.Join(dir, "www"), certs: filepath.Join(dir, "certs"), keylog: filepath.Join(dir, "keys.log")}
	if err := certs.Write(c.certs); err != nil {
		t.Fatal(err)
	}
	index := bytes.Repeat([]byte("i"), 4096)
	if err := os.MkdirAll(c.www, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.www, "index.html"), index, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.www, "1m.bin"), make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, c) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()

	pool := x509.NewCertPool()
	ca, err := os.ReadFile(filepath.Join(c.certs, "ca.pem"))
	if err != nil || !pool.AppendCertsFromPEM(ca) {
		t.Fatalf("ca.pem: %v", err)
	}
	base := "https://" + ln.Addr().String()
	for proto, tr := range map[string]*http.Transport{
		"HTTP/2.0": {TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "server"}, ForceAttemptHTTP2: true},
		// An empty TLSNextProto map: the client offers only http/1.1.
		"HTTP/1.1": {TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "server"}, TLSNextProto: map[string]func(string, *tls.Conn) http.RoundTripper{}},
	} {
		client := &http.Client{Transport: tr}
		get := func(path string) []byte {
			resp, err := client.Get(base + path)
			if err != nil {
				t.Fatalf("%s GET %s: %v", proto, path, err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || resp.Proto != proto {
				t.Fatalf("%s GET %s: %s %s", proto, path, resp.Proto, resp.Status)
			}
			return body
		}
		if got := get("/"); !bytes.Equal(got, index) {
			t.Errorf("%s GET /: %d bytes, want index.html", proto, len(got))
		}
		if got := get("/1m.bin"); len(got) != 1<<20 {
			t.Errorf("%s GET /1m.bin: %d bytes", proto, len(got))
		}
		const size = 3 << 20
		resp, err := client.Post(base+"/upload", "application/octet-stream", io.LimitReader(zeroReader{}, size))
		if err != nil {
			t.Fatalf("%s POST: %v", proto, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != strconv.Itoa(size) || resp.Proto != proto {
			t.Errorf("%s POST /upload: %s %q, want %d", proto, resp.Proto, body, size)
		}
		tr.CloseIdleConnections()
	}
	if st, err := os.Stat(c.keylog); err != nil || st.Size() == 0 {
		t.Errorf("keylog not written: %v", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }
