package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// runH1 is one HTTP/1.1 repetition with net/http's client on a connection dialled (and
// handshaken) beforehand, so the handshake stays out of the timing.
func runH1(ctx context.Context, c config, tlsConf *tls.Config) repResult {
	conn, err := dialTLS(ctx, c.addr, tlsConf, "http/1.1")
	if err != nil {
		return repResult{Reason: err.Error(), connectFailed: true}
	}
	defer conn.Close()
	var r repResult
	if p := conn.ConnectionState().NegotiatedProtocol; p != "" && p != "http/1.1" {
		r.finish(c.size, time.Time{}, time.Time{}, fmt.Sprintf("server negotiated ALPN %q, not http/1.1", p))
		return r
	}

	used := false
	tr := &http.Transport{
		// The one connection of this repetition; a second dial (a retry) would measure another.
		DialTLSContext: func(context.Context, string, string) (net.Conn, error) {
			if used {
				return nil, errors.New("the repetition's connection is already used")
			}
			used = true
			return conn, nil
		},
		TLSNextProto:       map[string]func(string, *tls.Conn) http.RoundTripper{}, // never HTTP/2
		DisableKeepAlives:  true,
		DisableCompression: true,
	}
	defer tr.CloseIdleConnections()

	body := &bodyReader{size: c.size}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://"+c.authority()+"/upload", body)
	if err != nil {
		r.finish(c.size, time.Time{}, time.Time{}, err.Error())
		return r
	}
	req.ContentLength = c.size
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("User-Agent", "wirelab-h2upload")

	status, answer, total, err := roundTrip(tr, req)
	end := time.Now()
	sent, first := body.progress()
	r.BytesSent = sent
	reason := ""
	switch {
	case err != nil && ctx.Err() != nil:
		reason = fmt.Sprintf("timed out after %v (%d of %d bytes sent)", c.timeout, sent, c.size)
	case err != nil:
		reason = fmt.Sprintf("%v (%d of %d bytes sent)", err, sent, c.size)
	default:
		reason = verifyAnswer(status, answer, total, c.size)
	}
	r.finish(c.size, first, end, reason)
	return r
}

// roundTrip sends req and reads the answer: its start, and how long it was in all.
func roundTrip(tr *http.Transport, req *http.Request) (int, []byte, int64, error) {
	resp, err := tr.RoundTrip(req)
	if err != nil {
		return 0, nil, 0, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return resp.StatusCode, answer, int64(len(answer)), err
	}
	rest, err := io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, answer, int64(len(answer)) + rest, err
}
