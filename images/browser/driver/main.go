// Command driver runs a real browser as a WebTransport client behind the lab's endpoint contract
// (ROLE=client, TESTCASE, REQUESTS, PROTOCOLS, /certs, /downloads, /www, /logs): it serves the
// page (page/) on a localhost origin, which is a secure context, so WebTransport is allowed
// without a certificate for the page itself; launches the browser headless on it; and waits for
// the page to report done over HTTP. The page does the WebTransport work; the driver only does
// what a page cannot: read the environment, the certificate and /www, write /downloads.
//
// Exit 0 when the page reports success, 1 otherwise. The last line printed is the reason (the
// lab shows a client's last line with its verdict).
package main

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// config is what the page is told (GET /config).
type config struct {
	Suite     string   `json:"suite"` // webtransport (index.html) or quic (h3.html)
	Testcase  string   `json:"testcase"`
	Requests  []string `json:"requests"`
	Protocols []string `json:"protocols"`
	// CertHash is the SHA-256 of the server certificate's DER, for the WebTransport
	// constructor's serverCertificateHashes: the browsers accept the lab's short-lived
	// self-made ECDSA certificate this way without trusting its CA.
	CertHash []byte `json:"certHash"`
	// DatagramGapMS paces the datagram GETs: a burst of 200 would overrun the browsers'
	// outgoing datagram queue and the peer's receive queue.
	DatagramGapMS int `json:"datagramGapMs"`
}

func main() {
	browser := flag.String("browser", "", "chromium or firefox")
	suite := flag.String("suite", "webtransport", "webtransport (the WebTransport page), quic (HTTP/3 downloads with fetch) or bench (make bench's timed downloads)")
	protocol := flag.String("protocol", "h3", "bench: the protocol of the downloads (h2, h3)")
	timeout := flag.Duration("timeout", 50*time.Second, "give up when the page has not reported done by then (bench: per download)")
	flag.Parse()
	var err error
	if *suite == "bench" {
		err = runBench(*browser, *protocol, *timeout)
	} else {
		err = run(*browser, *suite, *timeout)
	}
	if err != nil {
		fmt.Printf("driver: %s: %v\n", *browser, err)
		os.Exit(1)
	}
}

func run(name, suite string, timeout time.Duration) error {
	b, ok := browsers[name]
	if !ok {
		return fmt.Errorf("unknown browser %q (chromium, firefox)", name)
	}
	cert, err := serverCert("/certs/cert.pem")
	if err != nil {
		return err
	}
	hash := sha256.Sum256(cert.Raw)
	if suite != "webtransport" && suite != "quic" {
		return fmt.Errorf("unknown suite %q (webtransport, quic)", suite)
	}
	cfg := config{
		Suite: suite, Testcase: os.Getenv("TESTCASE"), Requests: strings.Fields(os.Getenv("REQUESTS")),
		Protocols: strings.Fields(os.Getenv("PROTOCOLS")), CertHash: hash[:], DatagramGapMS: 15,
	}
	if len(cfg.Requests) == 0 {
		return errors.New("REQUESTS is empty")
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := newServer(cfg, "/downloads", "/www")
	go http.Serve(ln, srv) //nolint:errcheck // ends with the process
	url := fmt.Sprintf("http://%s/", ln.Addr())
	if suite == "quic" {
		url += "h3.html"
	}

	waitAddressesSettled(10 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	proc, err := b.start(url, cert, launch{suite: suite})
	if err != nil {
		return fmt.Errorf("starting the browser: %v", err)
	}
	fmt.Printf("driver: %s started (pid %d) on %s\n", name, proc.pid(), url)
	res := awaitPage(ctx, srv, proc, timeout)
	if !res.OK {
		return errors.New(res.Why)
	}
	fmt.Printf("driver: %s: %s ok\n", name, cfg.Testcase)
	return nil
}

// awaitPage waits for the page's verdict, the browser's exit or the timeout, then stops the
// browser gracefully: it flushes its net log and key log.
func awaitPage(ctx context.Context, srv *server, proc *process, timeout time.Duration) result {
	var res result
	select {
	case res = <-srv.done:
	case err := <-proc.exited:
		res = result{Why: fmt.Sprintf("the browser exited before the page was done: %v", err)}
	case <-ctx.Done():
		res = result{Why: fmt.Sprintf("the page did not report done within %s", timeout)}
	}
	proc.stop(10 * time.Second)
	return res
}

// serverCert is the first certificate of the PEM file: the server's own (cert.pem holds it and
// then the CA).
func serverCert(path string) (*x509.Certificate, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("%s: no PEM certificate", path)
	}
	return x509.ParseCertificate(block.Bytes)
}
