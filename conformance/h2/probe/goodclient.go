package probe

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/net/http2"
)

// goodClient is the well-behaved client: x/net's HTTP/2 Transport on its own connection to the
// same target, requesting GET /.
type goodClient struct {
	tr      *http2.Transport
	url     string
	timeout time.Duration
}

func newGoodClient(t *Target, timeout time.Duration) *goodClient {
	tr := &http2.Transport{
		DialTLSContext: func(ctx context.Context, _, _ string, _ *tls.Config) (net.Conn, error) {
			return t.dial(ctx, 0)
		},
	}
	return &goodClient{tr: tr, url: "https://" + t.authority() + pathSmall, timeout: timeout}
}

func (g *goodClient) close() { g.tr.CloseIdleConnections() }

// get makes one request and reads its body; the latency covers both. No response within the
// timeout, a transport error or a 5xx is a failure.
func (g *goodClient) get(ctx context.Context) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.url, nil)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	resp, err := g.tr.RoundTrip(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	if resp.StatusCode >= 500 {
		return 0, fmt.Errorf("status %d", resp.StatusCode)
	}
	return time.Since(start), nil
}

// samples are one phase's latencies and failures.
type samples struct {
	lat      []time.Duration
	failures int
	firstErr error
}

func (s *samples) add(d time.Duration, err error) {
	if err != nil {
		if s.failures == 0 {
			s.firstErr = err
		}
		s.failures++
		return
	}
	s.lat = append(s.lat, d)
}

// baseline opens the connection with one uncounted request, then makes n in sequence.
func (g *goodClient) baseline(ctx context.Context, n int) samples {
	var s samples
	if _, err := g.get(ctx); err != nil {
		s.add(0, err)
		return s
	}
	for range n {
		s.add(g.get(ctx))
	}
	return s
}

// during starts a request every interval, each concurrently so that one stalled request does
// not hide the next, until stop is closed; the returned function waits for the last ones.
func (g *goodClient) during(ctx context.Context, interval time.Duration, stop <-chan struct{}) func() samples {
	var (
		mu sync.Mutex
		s  samples
		wg sync.WaitGroup
	)
	shoot := func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := g.get(ctx)
			mu.Lock()
			s.add(d, err)
			mu.Unlock()
		}()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		shoot()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				shoot()
			}
		}
	}()
	return func() samples {
		<-done
		wg.Wait()
		return s
	}
}
