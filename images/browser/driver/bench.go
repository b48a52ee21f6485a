package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/wirelab/wirelab/internal/cgroupcpu"
)

// benchLine is one download's line of /logs/bench.jsonl, with the names curl's -w '%{json}'
// uses where they mean the same (internal/benchsuite.Download). No times and no HTTP version:
// the lab reads both from the download's own log (NetLog, MOZ_LOG) after the cell is fenced,
// so browser start-up is not in them and the stored evidence gives the same numbers again.
type benchLine struct {
	URL       string  `json:"url_effective"`
	ExitCode  int     `json:"exitcode"`
	ErrorMsg  string  `json:"errormsg"`
	Size      int64   `json:"size_download"`
	SHA256    string  `json:"sha256"`
	NetLog    string  `json:"netlog,omitempty"` // Chromium's, relative to /logs
	MozLog    string  `json:"mozlog,omitempty"` // Firefox's, relative to /logs
	ClientCPU float64 `json:"client_cpu_ms"`    // the container's CPU from the fetch's start to its body's end
}

// runBench is make bench's client: each URL of REQUESTS downloaded by a browser of its own (so
// on a fresh connection, as curl's downloads are), in order, over protocol; the page fetches the
// URL, reads the whole body and reports its SHA-256. A failed download is a line too.
func runBench(name, protocol string, timeout time.Duration) error {
	b, ok := browsers[name]
	if !ok {
		return fmt.Errorf("unknown browser %q (chromium, firefox)", name)
	}
	if protocol != "h2" && protocol != "h3" {
		return fmt.Errorf("bench: protocol %q (h2, h3)", protocol)
	}
	urls := strings.Fields(os.Getenv("REQUESTS"))
	if len(urls) == 0 {
		return errors.New("REQUESTS is empty")
	}
	cert, err := serverCert("/certs/cert.pem")
	if err != nil {
		return err
	}
	out, err := os.OpenFile("/logs/bench.jsonl", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	fmt.Printf("driver: %s: TESTCASE=bench, %d download(s) over %s, one browser each, times from its own log of each\n", name, len(urls), protocol)
	failed := 0
	for i, u := range urls {
		line := benchOne(b, cert, u, protocol, i+1, timeout)
		if line.ExitCode != 0 {
			failed++
			fmt.Printf("driver: download %d: %s\n", i+1, line.ErrorMsg)
		}
		if err := json.NewEncoder(out).Encode(line); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d downloads failed", failed, len(urls))
	}
	fmt.Printf("driver: %s: bench done\n", name)
	return nil
}

// benchOne downloads one URL with a browser of its own and stops it (its log is complete
// once the browser is gone).
func benchOne(b browser, cert *x509.Certificate, url, protocol string, n int, timeout time.Duration) benchLine {
	line := benchLine{URL: url}
	ownLog := b.benchLog(n, &line)
	fail := func(format string, a ...any) benchLine {
		line.ExitCode, line.ErrorMsg = 1, fmt.Sprintf(format, a...)
		return line
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail("%v", err)
	}
	defer ln.Close()
	srv := newServer(config{Suite: "bench", Testcase: "bench", Requests: []string{url}}, "/downloads", "/www")
	var mu sync.Mutex
	cpu := map[string]time.Duration{}
	srv.HandleFunc("POST /mark", func(w http.ResponseWriter, r *http.Request) {
		t, err := cgroupcpu.Own()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		mu.Lock()
		cpu[r.URL.Query().Get("at")] = t
		mu.Unlock()
	})
	go http.Serve(ln, srv) //nolint:errcheck // ends with the listener

	waitAddressesSettled(10 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	proc, err := b.start(fmt.Sprintf("http://%s/bench.html", ln.Addr()), cert, launch{suite: "bench", log: ownLog, protocol: protocol})
	if err != nil {
		return fail("starting the browser: %v", err)
	}
	res := awaitPage(ctx, srv, proc, timeout) // the browser is gone after it: its log is whole
	if !res.OK {
		return fail("%s", res.Why)
	}
	line.Size, line.SHA256 = res.Size, res.SHA256
	mu.Lock()
	start, okStart := cpu["start"]
	end, okEnd := cpu["end"]
	mu.Unlock()
	if !okStart || !okEnd {
		return fail("the page did not mark the download's start and end")
	}
	line.ClientCPU = float64(end-start) / float64(time.Millisecond)
	return line
}
