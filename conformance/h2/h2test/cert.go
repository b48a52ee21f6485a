package h2test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Cert is a self-signed certificate for "server", "localhost" and 127.0.0.1 that is also its
// own CA, so clients can verify it (CertPEM as the -ca file) instead of skipping verification.
type Cert struct {
	TLS     tls.Certificate
	Pool    *x509.CertPool
	CertPEM []byte
}

var (
	certOnce sync.Once
	cert     *Cert
)

// TestCert returns the process-wide test certificate, made on first use.
func TestCert() *Cert {
	certOnce.Do(func() {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(1),
			Subject:               pkix.Name{CommonName: "wirelab h2test"},
			NotBefore:             time.Now().Add(-time.Hour),
			NotAfter:              time.Now().Add(24 * time.Hour),
			KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
			ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			BasicConstraintsValid: true,
			IsCA:                  true,
			DNSNames:              []string{"server", "localhost"},
			IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			panic(err)
		}
		leaf, _ := x509.ParseCertificate(der)
		pool := x509.NewCertPool()
		pool.AddCert(leaf)
		cert = &Cert{
			TLS:     tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf},
			Pool:    pool,
			CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		}
	})
	return cert
}

// ClientTLS verifies the test certificate under the name "server".
func ClientTLS() *tls.Config {
	return &tls.Config{ServerName: "server", RootCAs: TestCert().Pool}
}

// CAFile writes CertPEM to a file in the test's temporary folder, for the commands' -ca flag.
func CAFile(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, TestCert().CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
