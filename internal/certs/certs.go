// Package certs makes the per-run certificates QUIC endpoints get in /certs: a fresh CA and an
// ECDSA P-256 server certificate for the names the upstream interop runner uses.
package certs

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"time"
)

// ServerNames are the SANs of the server certificate (upstream's: server, server4, server6,
// server46).
var ServerNames = []string{"server", "server4", "server6", "server46"}

// Write creates dir/{ca.pem, cert.pem, priv.key}: cert.pem holds the server certificate followed
// by the CA (the chain the server sends), priv.key the server's PKCS#8 key.
func Write(dir string) error { return WriteChain(dir, 2) }

// WriteChain is Write with a chain of n certificates (n >= 2): the server certificate, n-2
// intermediate CAs and the root, as upstream's amplificationlimit case sends 9 to make the
// server's first flight exceed three times the client's Initial.
func WriteChain(dir string, n int) error {
	if n < 2 {
		return fmt.Errorf("certs: a chain needs at least 2 certificates, got %d", n)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	now := time.Now().Add(-time.Hour) // tolerate small clock skew between containers
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	caTmpl := caTemplate("wirelab run CA", now)
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	ca, _ := x509.ParseCertificate(caDER)
	issuer, issuerKey, chain := ca, caKey, [][]byte{caDER}
	for i := 0; i < n-2; i++ { // intermediates, each signed by the one above
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return err
		}
		tmpl := caTemplate(fmt.Sprintf("wirelab intermediate %d", i+1), now)
		der, err := x509.CreateCertificate(rand.Reader, tmpl, issuer, &k.PublicKey, issuerKey)
		if err != nil {
			return err
		}
		issuer, _ = x509.ParseCertificate(der)
		issuerKey = k
		chain = append([][]byte{der}, chain...) // nearest to the leaf first
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	leafTmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "server"},
		DNSNames:     ServerNames,
		NotBefore:    now,
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, issuer, &key.PublicKey, issuerKey)
	if err != nil {
		return err
	}
	certPEM := pemBlock("CERTIFICATE", leafDER)
	for _, der := range chain {
		certPEM = append(certPEM, pemBlock("CERTIFICATE", der)...)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	files := map[string][]byte{
		"ca.pem":   pemBlock("CERTIFICATE", caDER),
		"cert.pem": certPEM,
		"priv.key": pemBlock("PRIVATE KEY", keyDER),
	}
	for name, data := range files {
		// World-readable: endpoint processes may drop root (nginx, haproxy workers).
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("certs: %w", err)
		}
	}
	return nil
}

// caTemplate is a certificate authority valid for a week from now.
func caTemplate(name string, now time.Time) *x509.Certificate {
	return &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             now,
		NotAfter:              now.Add(7 * 24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
}

func pemBlock(kind string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return n
}
