package main

import (
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// startH2CUpstream serves h as the gRPC (h2c) upstream of an origin on a loopback port.
func startH2CUpstream(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := &http.Server{Handler: h, Protocols: new(http.Protocols)}
	srv.Protocols.SetUnencryptedHTTP2(true)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// trailersOnly answers with grpc-status code in the headers and no body.
func trailersOnly(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/grpc")
	w.Header().Set("Grpc-Status", code)
	w.WriteHeader(http.StatusOK)
}

// TestInterruptedConnectionNotReused forces the order behind a CANCELLED flake of the interop
// chain. The upstream answers a call (/t.S/Early) without waiting for its end of stream, while the
// origin's pump has read the end of the request body but not yet recorded it; net/http has then
// begun its background read of the connection. Unblocking the pump with a past read deadline
// makes that read fail, which net/http takes for the client going away: it cancels the
// connection's context, which every later request on the connection inherits. Such a connection
// must not serve the client's next call, while one whose body the pump finished on its own stays
// reusable.
func TestInterruptedConnectionNotReused(t *testing.T) {
	atEnd := make(chan struct{})
	var once sync.Once
	hook := func(s *stream) {
		once.Do(func() {
			close(atEnd)
			select { // until the converter gave up on the pump (the bound only guards against a hang)
			case <-s.parent.Done():
			case <-time.After(5 * time.Second):
			}
		})
	}
	bodyEndHook.Store(&hook)
	t.Cleanup(func() { bodyEndHook.Store(nil) })

	up := startH2CUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/t.S/Early" {
			<-atEnd
		} else {
			io.Copy(io.Discard, r.Body)
		}
		trailersOnly(w, "0")
	})
	base := "http://" + startConverter(t, "--mode", "origin", "--upstream", "http://"+up)
	rt := noProxyTransport(false)
	t.Cleanup(rt.CloseIdleConnections)
	frame := grpcweb.AppendFrame(nil, 0, []byte("m"))
	reused := make(chan bool, 1)
	trace := httptrace.WithClientTrace(testContext(t), &httptrace.ClientTrace{
		GotConn: func(i httptrace.GotConnInfo) { reused <- i.Reused },
	})
	for i, path := range []string{"/t.S/Early", "/t.S/Full", "/t.S/Full"} {
		r, err := rawCallErr(trace, rt, base+path, "application/grpc-web+proto", frame, nil)
		if err != nil {
			t.Fatalf("call %d %s: %v", i+1, path, err)
		}
		if r.status != "0" {
			t.Errorf("call %d %s: grpc-status %q (%s), want 0", i+1, path, r.status, r.message)
		}
		if again := <-reused; i == 2 && !again {
			t.Errorf("call %d %s: new connection, want the previous call's (its body was read to the end)", i+1, path)
		}
	}
}

// TestDroppedConnectionAnnounced: an origin that ends a call before the request body ended drops
// the connection. A trailers-only answer must say so (Connection: close); otherwise a client that
// finished sending meanwhile, like the edge's Transport, may put its next call on the connection
// and fail with EOF (Go does not retry a POST).
func TestDroppedConnectionAnnounced(t *testing.T) {
	up := startH2CUpstream(t, func(w http.ResponseWriter, r *http.Request) { trailersOnly(w, "12") })
	url := "http://" + startConverter(t, "--mode", "origin", "--upstream", "http://"+up) + "/t.S/Call"
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write(grpcweb.AppendFrame(nil, 0, []byte("m"))) // and the body stays open
	req, _ := http.NewRequestWithContext(testContext(t), http.MethodPost, url, pr)
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/grpc-web+proto")
	rt := noProxyTransport(false)
	defer rt.CloseIdleConnections()
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if got := resp.Header.Get("Grpc-Status"); got != "12" || !resp.Close {
		t.Fatalf("grpc-status %q, Connection %q; want 12 and close", got, resp.Header.Get("Connection"))
	}
}
