package main

import (
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"testing"

	"golang.org/x/net/http2"

	"github.com/wirelab/wirelab/conformance/h2/h2test"
	"github.com/wirelab/wirelab/internal/upload"
)

// startXNetServer serves /upload with h over TLS with x/net's HTTP/2 server at its defaults,
// and HTTP/1.1.
func startXNetServer(t *testing.T, h http.HandlerFunc) (addr, caFile string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/upload", h)
	srv := &http.Server{
		Handler:   mux,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{h2test.TestCert().TLS}},
		ErrorLog:  log.New(io.Discard, "", 0),
	}
	if err := http2.ConfigureServer(srv, &http2.Server{}); err != nil {
		t.Fatal(err)
	}
	go srv.ServeTLS(ln, "", "")
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), h2test.CAFile(t)
}

const testSize = 2_000_000

func TestXNetServerBothProtocols(t *testing.T) {
	log.SetOutput(io.Discard) // upload.Handler logs every body it counts
	t.Cleanup(func() { log.SetOutput(nil) })
	addr, caFile := startXNetServer(t, upload.Handler) // the lab's counting handler
	for _, proto := range []string{"h2", "h1"} {
		t.Run(proto, func(t *testing.T) {
			code, stderr, res := runUpload(t, addr, caFile, "-proto", proto, "-size", strconv.Itoa(testSize), "-reps", "2", "-timeout", "10s")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if res.Proto != proto || res.Size != testSize || len(res.Reps) != 2 {
				t.Fatalf("result %+v", res)
			}
			for i, r := range res.Reps {
				if !r.OK || r.Reason != "" || r.BytesSent != testSize || r.Seconds <= 0 || r.Mbps <= 0 {
					t.Errorf("rep %d: %+v", i, r)
				}
				if (r.H2 != nil) != (proto == "h2") {
					t.Errorf("rep %d: h2 record %v for %s", i, r.H2, proto)
				}
			}
			if res.MedianMbps == nil || *res.MedianMbps <= 0 {
				t.Errorf("median_mbps %v", res.MedianMbps)
			}
			if proto == "h2" {
				checkXNetFlowControl(t, res.Reps[0].H2)
			}
		})
	}
}

// checkXNetFlowControl checks what x/net's server is known to do: announce its frame size and
// windows in SETTINGS, open the connection window at once and return credit as the handler reads.
func checkXNetFlowControl(t *testing.T, h *h2Record) {
	t.Helper()
	seen := map[string]uint32{}
	for _, s := range h.Settings {
		seen[s.Name] = s.Value
	}
	for _, name := range []string{"INITIAL_WINDOW_SIZE", "MAX_FRAME_SIZE", "MAX_CONCURRENT_STREAMS"} {
		if _, ok := seen[name]; !ok {
			t.Errorf("SETTINGS %v lack %s", h.Settings, name)
		}
	}
	if h.InitialWindowSize != seen["INITIAL_WINDOW_SIZE"] || h.MaxFrameSize != seen["MAX_FRAME_SIZE"] ||
		h.MaxConcurrentStreams == nil || *h.MaxConcurrentStreams != seen["MAX_CONCURRENT_STREAMS"] {
		t.Errorf("values in effect %d/%d/%v disagree with SETTINGS %v", h.InitialWindowSize, h.MaxFrameSize, h.MaxConcurrentStreams, h.Settings)
	}
	if h.InitialConnectionWindowUpdate <= 0 {
		t.Errorf("no opening connection WINDOW_UPDATE recorded: %d", h.InitialConnectionWindowUpdate)
	}
	if h.StreamWindowUpdates.Count == 0 || h.ConnectionWindowUpdates.Count == 0 {
		t.Errorf("WINDOW_UPDATEs: stream %+v, connection %+v, want both > 0", h.StreamWindowUpdates, h.ConnectionWindowUpdates)
	}
	if h.StreamWindowUpdates.MedianIncrement == nil || *h.StreamWindowUpdates.MedianIncrement <= 0 {
		t.Errorf("stream median increment %v", h.StreamWindowUpdates.MedianIncrement)
	}
	// In flight is bounded by the larger of the windows the server opened with.
	if limit := max(h.InitialConnectionWindowUpdate+defaultWindow, int64(h.InitialWindowSize)); h.MaxInFlight <= 0 || h.MaxInFlight > limit {
		t.Errorf("max in flight %d, want within (0, %d]", h.MaxInFlight, limit)
	}
}
