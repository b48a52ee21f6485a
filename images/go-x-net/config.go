package main

import (
	"crypto/tls"
	"io"
	"log/slog"
	"os"
	"time"

	"golang.org/x/net/quic"
	"golang.org/x/net/quic/qlog"
)

// env is the endpoint contract's environment, read once in main.
type env struct {
	role, testcase, requests string
	keyLogFile               string // SSLKEYLOGFILE
	qlogDir                  string // QLOGDIR
	www, downloads, certs    string // the mounts (fixed by the contract; tests point them elsewhere)
	listen                   string // server's UDP address
	serverName               string // client: TLS name to verify instead of the URL's host (tests)
}

func envFromOS() env {
	return env{
		role:       os.Getenv("ROLE"),
		testcase:   os.Getenv("TESTCASE"),
		requests:   os.Getenv("REQUESTS"),
		keyLogFile: os.Getenv("SSLKEYLOGFILE"),
		qlogDir:    os.Getenv("QLOGDIR"),
		www:        "/www",
		downloads:  "/downloads",
		certs:      "/certs",
		listen:     ":443",
	}
}

// baseConfig is the quic.Config both roles share: TLS 1.3 with hq-interop, the key log the trace
// checks decrypt with, and qlog through x/net's own qlog handler (one .sqlog file per connection).
// The returned closer flushes the key log.
func baseConfig(e env) (*quic.Config, io.Closer, error) {
	cfg := &quic.Config{
		TLSConfig: &tls.Config{MinVersion: tls.VersionTLS13, NextProtos: []string{alpn}},
		// Under 30% loss each way (handshakeloss) the default 10 s runs out; 30 s still ends a
		// client dialing a server that answered 127 well inside the runner's 60 s limit, so the
		// cell is reported unsupported rather than timed out.
		HandshakeTimeout:    30 * time.Second,
		MaxUniRemoteStreams: -1, // hq-interop uses no unidirectional streams
	}
	var closer io.Closer = nopCloser{}
	if e.keyLogFile != "" {
		f, err := os.OpenFile(e.keyLogFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, nil, err
		}
		cfg.TLSConfig.KeyLogWriter, closer = f, f
	}
	if e.qlogDir != "" {
		if err := os.MkdirAll(e.qlogDir, 0o755); err != nil {
			return nil, nil, err
		}
		cfg.QLogLogger = slog.New(qlog.NewJSONHandler(qlog.HandlerOptions{
			Level: quic.QLogLevelFrame, // packets with their frames, like x/net's own interop program
			Dir:   e.qlogDir,
		}))
	}
	return cfg, closer, nil
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
