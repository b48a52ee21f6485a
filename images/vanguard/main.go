// Command vanguard is connectrpc.com/vanguard's Transcoder as a gRPC-web origin: it accepts
// gRPC-web (and Connect, and gRPC over h2c) on an HTTP/1.1 + h2c server and forwards every call
// as gRPC over h2c to --upstream, for grpc.testing.TestService and UnimplementedService (schemas
// from grpc-go's generated interop protos). Only the wiring is ours; the conversion is vanguard's.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"connectrpc.com/vanguard"
	_ "google.golang.org/grpc/interop/grpc_testing" // registers the services in protoregistry.GlobalFiles
)

// services are the interop services the transcoder knows (it needs each one's schema).
var services = []string{"grpc.testing.TestService", "grpc.testing.UnimplementedService"}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vanguard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", ":80", "address to serve gRPC-web / Connect / gRPC (HTTP/1.1 and h2c) on")
	upstream := fs.String("upstream", "", "gRPC server URL, http://host:port (h2c, prior knowledge)")
	logPath := fs.String("log", "", "JSON-lines log of requests (default: none)")
	version := fs.Bool("version", false, "print vanguard's module version and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *version {
		fmt.Fprintln(stdout, moduleVersion("connectrpc.com/vanguard"))
		return 0
	}
	logw := io.Discard
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "vanguard: --log: %v\n", err)
			return 2
		}
		defer f.Close()
		logw = f
	}
	h, err := newHandler(*upstream, &eventLog{w: logw})
	if err != nil {
		fmt.Fprintf(stderr, "vanguard: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(stderr, "vanguard: %v\n", err)
		return 1
	}
	srv := newServer(h)
	fmt.Fprintf(stderr, "vanguard %s on %s -> %s\n", moduleVersion("connectrpc.com/vanguard"), ln.Addr(), *upstream)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "vanguard: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if srv.Shutdown(shutdown) != nil {
		srv.Close()
	}
	return 0
}

// newServer serves HTTP/1.1 and h2c. No read/write timeouts: a cut long stream would be this
// wrapper's doing, not vanguard's.
func newServer(h http.Handler) *http.Server {
	p := new(http.Protocols)
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	return &http.Server{Handler: h, Protocols: p, ReadHeaderTimeout: 10 * time.Second}
}

// newHandler is the Transcoder in front of a reverse proxy to upstream. WithTargetProtocols(gRPC)
// makes vanguard convert every incoming protocol to gRPC, which is all the upstream speaks.
func newHandler(upstream string, log *eventLog) (http.Handler, error) {
	u, err := url.Parse(upstream)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("--upstream %q: want http://host:port (h2c)", upstream)
	}
	tr := &http.Transport{Protocols: new(http.Protocols)}
	tr.Protocols.SetUnencryptedHTTP2(true) // http:// URLs go out as h2c with prior knowledge
	proxy := &httputil.ReverseProxy{
		Rewrite:       func(pr *httputil.ProxyRequest) { pr.SetURL(u) },
		Transport:     tr,
		FlushInterval: -1, // each gRPC message goes on at once
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			log.write(map[string]any{"event": "upstream_error", "path": r.URL.Path, "error": err.Error()})
			w.WriteHeader(http.StatusBadGateway) // vanguard maps it to a gRPC status
		},
	}
	var svcs []*vanguard.Service
	for _, name := range services {
		svcs = append(svcs, vanguard.NewService(name, proxy))
	}
	t, err := vanguard.NewTranscoder(svcs, vanguard.WithDefaultServiceOptions(vanguard.WithTargetProtocols(vanguard.ProtocolGRPC)))
	if err != nil {
		return nil, err
	}
	return logRequests(t, log), nil
}

// moduleVersion is mod's version as compiled in (go.mod's pin).
func moduleVersion(mod string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == mod {
				return strings.TrimPrefix(d.Version, "v")
			}
		}
	}
	return "unknown"
}

// eventLog writes one JSON object a line; requests finish concurrently.
type eventLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *eventLog) write(ev map[string]any) {
	ev["time"] = time.Now().UTC().Format(time.RFC3339Nano)
	b, _ := json.Marshal(ev)
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(append(b, '\n'))
}

// logRequests logs each request as vanguard answered it (HTTP status, and grpc-status when the
// answer was trailers-only; otherwise it is in the body's trailer frame or HTTP/2 trailers).
func logRequests(h http.Handler, log *eventLog) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		// Noted before ServeHTTP: vanguard rewrites the request's headers and protocol in place.
		ev := map[string]any{"event": "request", "proto": r.Proto, "method": r.Method, "path": r.URL.Path,
			"content_type": r.Header.Get("Content-Type")}
		rec := &recorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		ev["status"], ev["grpc_status"], ev["response_bytes"] = rec.status, w.Header().Get("Grpc-Status"), rec.bytes
		ev["ms"] = time.Since(start).Milliseconds()
		log.write(ev)
	})
}

// recorder notes status and size; Flush and Unwrap keep vanguard's flushing and
// http.ResponseController working through it.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(p)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Flush() { _ = http.NewResponseController(r.ResponseWriter).Flush() }

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
