package probe

import "github.com/wirelab/wirelab/conformance/h2/h2test"

// testTarget aims the probes at a loopback test server, trusting h2test's certificate.
func testTarget(addr string) *Target { return &Target{Addr: addr, TLS: h2test.ClientTLS()} }
