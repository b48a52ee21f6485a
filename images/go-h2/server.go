package main

import (
	"context"
	"crypto/tls"
	"errors"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/upload"
)

// config is where the server finds its files, certificates and keylog.
type config struct {
	www, certs string
	keylog     string // SSLKEYLOGFILE; empty: no keylog
}

// serve runs the HTTP/1.1 + HTTP/2 server on ln until ctx ends.
func serve(ctx context.Context, ln net.Listener, c config) error {
	root, err := os.OpenRoot(c.www)
	if err != nil {
		return err
	}
	defer root.Close()

	// Only the keylog is set here. Everything HTTP/2 (windows, frame size, stream limit) stays at
	// net/http's defaults, which ServeTLS switches on by adding "h2" to the ALPN list.
	tlsConf := &tls.Config{}
	if c.keylog != "" {
		f, err := os.OpenFile(c.keylog, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		tlsConf.KeyLogWriter = f
	}
	srv := &http.Server{Handler: handler(root), TLSConfig: tlsConf}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	log.Printf("go-h2: serving %s on https://%v (h2, http/1.1)", c.www, ln.Addr())
	err = srv.ServeTLS(ln, filepath.Join(c.certs, "cert.pem"), filepath.Join(c.certs, "priv.key"))
	if errors.Is(err, http.ErrServerClosed) && ctx.Err() != nil {
		return nil
	}
	return err
}

// handler: /upload counts bodies; everything else is a file under root (GET / is index.html).
// root keeps "..", absolute paths and symlinks from leaving the folder.
func handler(root *os.Root) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/upload", upload.Handler)
	mux.Handle("/", http.FileServerFS(root.FS()))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Printf("go-h2: %s %s %s from %s", r.Method, r.URL.Path, r.Proto, r.RemoteAddr)
		mux.ServeHTTP(w, r)
	})
}
