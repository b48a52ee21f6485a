package certs

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteMakesAVerifiableChain(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	pair, err := tls.LoadX509KeyPair(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "priv.key"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pair.Certificate) != 2 {
		t.Fatalf("cert.pem holds %d certificates, want leaf + CA", len(pair.Certificate))
	}
	leaf, _ := x509.ParseCertificate(pair.Certificate[0])
	if k, ok := leaf.PublicKey.(*ecdsa.PublicKey); !ok || k.Curve != elliptic.P256() {
		t.Fatal("server key is not ECDSA P-256")
	}
	caPEM, _ := os.ReadFile(filepath.Join(dir, "ca.pem"))
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	for _, name := range ServerNames {
		if _, err := leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: roots}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := leaf.Verify(x509.VerifyOptions{DNSName: "client", Roots: roots}); err == nil {
		t.Error("certificate must not be valid for other names")
	}
	other := t.TempDir()
	_ = Write(other)
	otherCA, _ := os.ReadFile(filepath.Join(other, "ca.pem"))
	foreign := x509.NewCertPool()
	foreign.AppendCertsFromPEM(otherCA)
	if _, err := leaf.Verify(x509.VerifyOptions{DNSName: "server4", Roots: foreign}); err == nil {
		t.Error("each run must have its own CA")
	}
}

func TestWriteChainOfNine(t *testing.T) {
	dir := t.TempDir()
	if err := WriteChain(dir, 9); err != nil {
		t.Fatal(err)
	}
	pair, err := tls.LoadX509KeyPair(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "priv.key"))
	if err != nil || len(pair.Certificate) != 9 {
		t.Fatalf("%v, %d certificates", err, len(pair.Certificate))
	}
	caPEM, _ := os.ReadFile(filepath.Join(dir, "ca.pem"))
	roots, inter := x509.NewCertPool(), x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	for _, der := range pair.Certificate[1:8] {
		c, _ := x509.ParseCertificate(der)
		inter.AddCert(c)
	}
	leaf, _ := x509.ParseCertificate(pair.Certificate[0])
	chains, err := leaf.Verify(x509.VerifyOptions{DNSName: "server4", Roots: roots, Intermediates: inter})
	if err != nil || len(chains[0]) != 9 {
		t.Fatalf("chain: %v %v", err, chains)
	}
	if WriteChain(t.TempDir(), 1) == nil {
		t.Fatal("a one-certificate chain accepted")
	}
}
