package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/net/quic"
)

// maxParallel bounds the requests in flight on one connection (goroutines and open files); the
// server's stream limit bounds them further.
const maxParallel = 256

// client downloads REQUESTS into e.downloads according to the plan.
type client struct {
	cfg       *quic.Config
	downloads *os.Root
	tickets   *ticketCache
}

func runClient(ctx context.Context, e env, p plan) error {
	targets, err := parseRequests(e.requests)
	if err != nil {
		return err
	}
	cfg, closer, err := baseConfig(e)
	if err != nil {
		return err
	}
	defer closer.Close()
	if err := setRootCAs(cfg.TLSConfig, filepath.Join(e.certs, "ca.pem")); err != nil {
		return err
	}
	cfg.TLSConfig.ServerName = e.serverName // empty: x/net/quic uses the URL's host
	cfg.MaxBidiRemoteStreams = -1           // the server never opens streams in hq-interop
	c := &client{cfg: cfg, tickets: newTicketCache()}
	cfg.TLSConfig.ClientSessionCache = c.tickets
	if c.downloads, err = os.OpenRoot(e.downloads); err != nil {
		return err
	}
	defer c.downloads.Close()

	log.Printf("client: TESTCASE=%s, %d URLs", p.testcase, len(targets))
	for _, group := range byAuthority(targets) {
		if err := c.fetchGroup(ctx, p.mode, group); err != nil {
			return err
		}
	}
	return nil
}

// setRootCAs makes the client verify the server against the run's CA (/certs/ca.pem), so a
// handshake with the wrong certificate fails instead of passing silently.
func setRootCAs(tc *tls.Config, caFile string) error {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return fmt.Errorf("%s: no PEM certificate", caFile)
	}
	tc.RootCAs = pool
	return nil
}

func (c *client) fetchGroup(ctx context.Context, m mode, ts []target) error {
	// One UDP socket of the family the name resolves to, for all of this server's connections:
	// server4 stays IPv4 and server6 IPv6 on the wire.
	ua, err := net.ResolveUDPAddr("udp", ts[0].authority)
	if err != nil {
		return err
	}
	network := "udp6"
	if ua.IP.To4() != nil {
		network = "udp4"
	}
	ep, err := quic.Listen(network, ":0", nil)
	if err != nil {
		return err
	}
	defer ep.Close(context.Background())

	switch m {
	case connPerURL:
		for _, t := range ts {
			if err := c.session(ctx, ep, network, []target{t}, plain); err != nil {
				return err
			}
		}
		return nil
	case resumeAfter1:
		if len(ts) < 2 {
			return errors.New("resumption needs at least 2 URLs (one per connection)")
		}
		if err := c.session(ctx, ep, network, ts[:1], getTicket); err != nil {
			return err
		}
		return c.session(ctx, ep, network, ts[1:], mustResume)
	default:
		return c.session(ctx, ep, network, ts, plain)
	}
}

// sessionKind says what a connection has to do with TLS session tickets.
type sessionKind int

const (
	plain      sessionKind = iota
	getTicket              // wait for the server's ticket before closing
	mustResume             // fail unless the handshake resumed a session
)

// session dials one connection, fetches ts on it concurrently and closes it.
func (c *client) session(ctx context.Context, ep *quic.Endpoint, network string, ts []target, kind sessionKind) error {
	start := time.Now()
	conn, err := ep.Dial(ctx, network, ts[0].authority, c.cfg)
	if err != nil {
		return fmt.Errorf("dial %s: %w", ts[0].authority, err)
	}
	st := conn.ConnectionState()
	log.Printf("client: connected to %v in %v (resumed=%v, %s)", conn.RemoteAddr(),
		time.Since(start).Round(time.Millisecond), st.DidResume, tls.CipherSuiteName(st.CipherSuite))
	if kind == mustResume && !st.DidResume {
		conn.Abort(nil)
		return errors.New("the second connection did not resume the TLS session")
	}
	err = c.fetchAll(ctx, conn, ts)
	if err == nil && kind == getTicket {
		// The server sends its ticket after the handshake; wait for it before closing, so the
		// next connection can resume.
		err = c.tickets.wait(ctx, 5*time.Second)
	}
	closeConn(conn)
	return err
}

func closeConn(conn *quic.Conn) {
	conn.Abort(nil) // CONNECTION_CLOSE with NO_ERROR
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn.Wait(ctx) // the draining period; the peer's close ends it early
}

func (c *client) fetchAll(ctx context.Context, conn *quic.Conn, ts []target) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, maxParallel)
	for _, t := range ts {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := c.fetch(ctx, conn, t); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// fetch sends one HTTP/0.9 request on a new stream and stores the response body.
func (c *client) fetch(ctx context.Context, conn *quic.Conn, t target) error {
	s, err := conn.NewStream(ctx)
	if err != nil {
		return fmt.Errorf("GET %s: new stream: %w", t.path, err)
	}
	// Not s.Close(): it waits until the server has acknowledged the request, which is moot once
	// the whole response is here and, under heavy loss, waited out x/net's backed-off PTO (tens
	// of seconds per connection in handshakeloss). CloseRead ends the stream on our side.
	defer s.CloseRead()
	if _, err := io.WriteString(s, requestLine(t.path)); err != nil {
		return fmt.Errorf("GET %s: %w", t.path, err)
	}
	s.CloseWrite() // FIN: the request is complete
	f, err := createIn(c.downloads, t.file)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("GET %s: after %d bytes: %w", t.path, n, err)
	}
	return nil
}

// createIn creates name (and its directories) inside root; os.Root keeps it from escaping.
func createIn(root *os.Root, name string) (*os.File, error) {
	dir := path.Dir(name)
	if dir != "." {
		parts := ""
		for _, seg := range splitPath(dir) {
			parts = path.Join(parts, seg)
			if err := root.Mkdir(parts, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
				return nil, err
			}
		}
	}
	return root.Create(name)
}

func splitPath(p string) []string {
	var out []string
	for p != "." && p != "/" && p != "" {
		out = append([]string{path.Base(p)}, out...)
		p = path.Dir(p)
	}
	return out
}
