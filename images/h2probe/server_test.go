package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/net/http2"
)

// xnetServer serves the lab's h2 contract with golang.org/x/net/http2's server on loopback and
// returns its address and a CA file that trusts it (as "probe.test").
func xnetServer(t *testing.T) (addr, caFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "probe.test"}, DNSNames: []string{"probe.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	tlsConf := &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, NextProtos: []string{"h2"}}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	handler := http.FileServerFS(fstest.MapFS{
		"index.html": {Data: bytes.Repeat([]byte("wirelab "), 256)},
		"1m.bin":     {Data: make([]byte, 1<<20)},
	})
	h2 := &http2.Server{}
	quiet := &http.Server{ErrorLog: log.New(io.Discard, "", 0)} // its connection errors are expected
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				tc := tls.Server(c, tlsConf)
				if tc.Handshake() != nil {
					c.Close()
					return
				}
				h2.ServeConn(tc, &http2.ServeConnOpts{Handler: handler, BaseConfig: quiet})
			}()
		}
	}()
	return ln.Addr().String(), caFile
}
