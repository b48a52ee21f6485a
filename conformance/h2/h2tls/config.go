package h2tls

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// ClientConfig is the trust the commands' flags ask for: serverName verified against the PEM
// certificates in caFile ("": the system roots), or nothing verified with insecure. Errors are
// one line naming the flag, as the commands report bad input.
func ClientConfig(serverName, caFile string, insecure bool) (*tls.Config, error) {
	conf := &tls.Config{ServerName: serverName, InsecureSkipVerify: insecure}
	if caFile == "" {
		return conf, nil
	}
	if insecure {
		return nil, errors.New("-ca: cannot be combined with -insecure")
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("-ca: %v", err)
	}
	conf.RootCAs = x509.NewCertPool()
	if !conf.RootCAs.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("-ca: %s holds no PEM certificate", caFile)
	}
	return conf, nil
}
