package probe

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"
)

var (
	certOnce sync.Once
	testCert tls.Certificate
	testPool *x509.CertPool
)

// testTLS returns a server certificate for 127.0.0.1 (made once per test binary) and the pool
// that trusts it.
func testTLS(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	certOnce.Do(func() {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(1),
			Subject:               pkix.Name{CommonName: "probe.test"},
			DNSNames:              []string{"probe.test"},
			IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
			NotBefore:             time.Now().Add(-time.Hour),
			NotAfter:              time.Now().Add(24 * time.Hour),
			IsCA:                  true,
			BasicConstraintsValid: true,
			KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
			ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			panic(err)
		}
		leaf, _ := x509.ParseCertificate(der)
		testCert = tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
		testPool = x509.NewCertPool()
		testPool.AddCert(leaf)
	})
	return testCert, testPool
}

// listenTLS listens on loopback with ALPN h2 and returns the target a client should aim at.
func listenTLS(t *testing.T) (net.Listener, *tls.Config, *Target) {
	t.Helper()
	cert, pool := testTLS(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	srvConf := &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2"}}
	target := &Target{Addr: ln.Addr().String(), TLS: &tls.Config{ServerName: "probe.test", RootCAs: pool}}
	return ln, srvConf, target
}
