package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/certs"
)

// A real x/net/quic client against the real server on loopback: the adapter end to end, without
// Docker or the sim.

type lab struct {
	t    *testing.T
	base env
	port int
}

func newLab(t *testing.T) *lab {
	d := t.TempDir()
	for _, sub := range []string{"www", "downloads", "certs", "logs/qlog"} {
		if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := certs.Write(filepath.Join(d, "certs")); err != nil {
		t.Fatal(err)
	}
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := pc.LocalAddr().(*net.UDPAddr).Port
	pc.Close()
	return &lab{t: t, port: port, base: env{
		www: filepath.Join(d, "www"), downloads: filepath.Join(d, "downloads"), certs: filepath.Join(d, "certs"),
		keyLogFile: filepath.Join(d, "logs/keys.log"), qlogDir: filepath.Join(d, "logs/qlog"),
		listen: fmt.Sprintf("127.0.0.1:%d", port), serverName: "server4",
	}}
}

// files writes n random files of size bytes into www and returns their URLs.
func (l *lab) files(n, size int) string {
	var urls []string
	for i := range n {
		name := fmt.Sprintf("f%04d", i)
		b := make([]byte, size)
		rand.Read(b)
		if err := os.WriteFile(filepath.Join(l.base.www, name), b, 0o644); err != nil {
			l.t.Fatal(err)
		}
		urls = append(urls, fmt.Sprintf("https://127.0.0.1:%d/%s", l.port, name))
	}
	return strings.Join(urls, " ")
}

// serve starts the server for testcase and stops it when the test ends.
func (l *lab) serve(testcase string) {
	p, err := planFor("server", testcase)
	if err != nil {
		l.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runServer(ctx, l.base, p) }()
	l.t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			l.t.Errorf("server: %v", err)
		}
	})
	time.Sleep(100 * time.Millisecond) // let it bind
}

func (l *lab) fetch(testcase, requests string) error {
	p, err := planFor("client", testcase)
	if err != nil {
		l.t.Fatal(err)
	}
	e := l.base
	e.requests = requests
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return runClient(ctx, e, p)
}

// sameFiles fails unless every file in www arrived byte-identical in downloads.
func (l *lab) sameFiles() {
	ents, _ := os.ReadDir(l.base.www)
	for _, ent := range ents {
		want, _ := os.ReadFile(filepath.Join(l.base.www, ent.Name()))
		got, err := os.ReadFile(filepath.Join(l.base.downloads, ent.Name()))
		if err != nil || !bytes.Equal(got, want) {
			l.t.Fatalf("%s: downloaded %d bytes (%v), want %d identical bytes", ent.Name(), len(got), err, len(want))
		}
	}
}

func TestLoopbackTransfer(t *testing.T) {
	l := newLab(t)
	l.serve("transfer")
	if err := l.fetch("transfer", l.files(3, 300<<10)); err != nil {
		t.Fatal(err)
	}
	l.sameFiles()
	if st, err := os.Stat(l.base.keyLogFile); err != nil || st.Size() == 0 {
		t.Errorf("no TLS key log written: %v", err)
	}
	if q, _ := filepath.Glob(filepath.Join(l.base.qlogDir, "*.sqlog")); len(q) < 2 {
		t.Errorf("qlog files: %v, want one per side", q)
	}
}

func TestLoopbackMultiplexingBeyondStreamLimit(t *testing.T) {
	l := newLab(t)
	l.serve("transfer")
	// More requests than the server's stream limit: the client must wait for MAX_STREAMS.
	if err := l.fetch("transfer", l.files(maxStreamsBidi+200, 32)); err != nil {
		t.Fatal(err)
	}
	l.sameFiles()
}

func TestLoopbackMulticonnectAndRetry(t *testing.T) {
	l := newLab(t)
	l.serve("retry")
	if err := l.fetch("multiconnect", l.files(3, 1000)); err != nil {
		t.Fatal(err)
	}
	l.sameFiles()
}

func TestLoopbackMissingFileFails(t *testing.T) {
	l := newLab(t)
	l.serve("transfer")
	urls := l.files(1, 1000) + fmt.Sprintf(" https://127.0.0.1:%d/missing", l.port)
	if err := l.fetch("transfer", urls); err == nil {
		t.Fatal("fetching a file the server does not have succeeded")
	}
}

func TestLoopbackServerStaysInsideWWW(t *testing.T) {
	l := newLab(t)
	secret := filepath.Join(filepath.Dir(l.base.www), "secret")
	os.WriteFile(secret, []byte("outside"), 0o644)
	os.Symlink(secret, filepath.Join(l.base.www, "link"))
	root, err := os.OpenRoot(l.base.www)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, p := range []string{"/link", "/../secret", "/a/../../secret", "/", "/nonexistent"} {
		var buf bytes.Buffer
		if n, err := sendFile(&buf, root, p); err == nil || buf.Len() > 0 {
			t.Errorf("sendFile(%q) served %d bytes (%q), err %v; want refused", p, n, buf.String(), err)
		}
	}
	os.WriteFile(filepath.Join(l.base.www, "ok"), []byte("fine"), 0o644)
	var buf bytes.Buffer
	if _, err := sendFile(&buf, root, "/ok"); err != nil || buf.String() != "fine" {
		t.Errorf("sendFile(/ok) = %q, %v", buf.String(), err)
	}
}

// x/net/quic's server issues no session tickets, so a resumption client must fail against it
// (and say why) rather than report a resumption that did not happen.
func TestLoopbackResumptionNeedsATicket(t *testing.T) {
	l := newLab(t)
	l.serve("transfer")
	err := l.fetch("resumption", l.files(2, 1000))
	if err == nil || !strings.Contains(err.Error(), "no session ticket") {
		t.Fatalf("resumption against a server without tickets: %v, want a no-ticket error", err)
	}
}

func TestLoopbackWrongCAFails(t *testing.T) {
	l := newLab(t)
	l.serve("handshake")
	// A different CA in the client's ca.pem: the handshake has to fail.
	other := t.TempDir()
	if err := certs.Write(other); err != nil {
		t.Fatal(err)
	}
	ca, _ := os.ReadFile(filepath.Join(other, "ca.pem"))
	os.WriteFile(filepath.Join(l.base.certs, "ca.pem"), ca, 0o644)
	if err := l.fetch("handshake", l.files(1, 100)); err == nil {
		t.Fatal("handshake with a certificate from an unknown CA succeeded")
	}
}
