package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"golang.org/x/net/quic"
)

// maxStreamsBidi is the server's initial_max_streams_bidi. The multiplexing case requires
// <= 1000 so that the client has to wait for MAX_STREAMS to send all 1999 requests.
const maxStreamsBidi = 1000

// hqErrorNotFound resets a request stream whose file cannot be served (hq-interop has no status
// line; a reset tells the client the response is not the file).
const hqErrorNotFound = 0x10

// runServer serves e.www over hq-interop on e.listen (":443": IPv4 and IPv6 on one dual-stack
// socket) until ctx ends.
func runServer(ctx context.Context, e env, p plan) error {
	cfg, closer, err := baseConfig(e)
	if err != nil {
		return err
	}
	defer closer.Close()
	cert, err := tls.LoadX509KeyPair(filepath.Join(e.certs, "cert.pem"), filepath.Join(e.certs, "priv.key"))
	if err != nil {
		return fmt.Errorf("%s: %v", e.certs, err)
	}
	cfg.TLSConfig.Certificates = []tls.Certificate{cert}
	cfg.MaxBidiRemoteStreams = maxStreamsBidi
	cfg.RequireAddressValidation = p.requireAddr
	rand.Read(cfg.StatelessResetKey[:])

	root, err := os.OpenRoot(e.www)
	if err != nil {
		return err
	}
	defer root.Close()

	// "udp" with no host: Go opens one AF_INET6 socket with IPV6_V6ONLY off, which also takes
	// IPv4 (x/net/quic unmaps the v4-mapped peer addresses).
	ep, err := quic.Listen("udp", e.listen, cfg)
	if err != nil {
		return err
	}
	defer ep.Close(context.Background())
	log.Printf("server: TESTCASE=%s, serving %s on %v (retry=%v)", p.testcase, e.www, ep.LocalAddr(), p.requireAddr)
	for {
		conn, err := ep.Accept(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil // stopped
			}
			return err
		}
		go serveConn(ctx, conn, root)
	}
}

func serveConn(ctx context.Context, conn *quic.Conn, root *os.Root) {
	log.Printf("server: connection from %v", conn.RemoteAddr())
	for {
		s, err := conn.AcceptStream(ctx)
		if err != nil {
			log.Printf("server: connection from %v ended: %v", conn.RemoteAddr(), err)
			return
		}
		go serveStream(s, root)
	}
}

func serveStream(s *quic.Stream, root *os.Root) {
	urlPath, err := readRequest(s)
	// Nothing after the request line matters. x/net/quic counts a stream as finished (and grants
	// the client a new one with MAX_STREAMS) only once both directions are closed, so close the
	// read side explicitly: without this, 1999 requests stall at the 1000-stream limit.
	s.CloseRead()
	if err != nil {
		log.Printf("server: stream: %v", err)
		s.Reset(hqErrorNotFound)
		return
	}
	n, err := sendFile(s, root, urlPath)
	if err != nil {
		log.Printf("server: GET %s: %v", urlPath, err)
		s.Reset(hqErrorNotFound)
		return
	}
	// FIN after the file; the connection retransmits what is lost, so there is no need to wait for
	// the peer's ACKs here (Close would, and reports "stream reset" when the client closes the
	// connection right after its last byte arrives).
	s.CloseWrite()
	log.Printf("server: GET %s: %d bytes", urlPath, n)
}

// sendFile writes the file a URL path names, opened through root so nothing outside it (no "..",
// no symlink leading out) can be served.
func sendFile(w io.Writer, root *os.Root, urlPath string) (int64, error) {
	name, err := localName(urlPath)
	if err != nil {
		return 0, err
	}
	f, err := root.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return 0, errors.New("not a regular file")
	}
	return io.Copy(w, f)
}
