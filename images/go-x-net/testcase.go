package main

import (
	"errors"
	"fmt"
)

// errUnsupported means "answer 127": the interop runner's code for a test case an endpoint does
// not implement.
var errUnsupported = errors.New("test case not supported")

// mode is how the client spreads its requests over connections.
type mode int

const (
	oneConn      mode = iota // every request on one connection, concurrently
	connPerURL               // one connection per request, one after another (multiconnect)
	resumeAfter1             // first request on one connection, the rest on a resumed second one
)

// plan is what one run does, derived from ROLE and TESTCASE before anything touches the network.
type plan struct {
	role        string
	testcase    string
	mode        mode // client
	requireAddr bool // server: Retry every new connection (address validation)
}

// planFor maps the runner's TESTCASE onto what golang.org/x/net/quic can really do; every case
// not listed needs something x/net/quic does not have and answers errUnsupported (exit 127).
//
// WHY each gap: 0-RTT, connection migration and QUIC v2 are listed as unsupported in the
// package's own doc; its server never calls tls.QUICConn.SendSessionTicket, so it issues no
// tickets (resumption works only as a client); crypto/tls cannot restrict the TLS 1.3 suites a
// client offers (chacha20 works only as a server, which picks what the client offers); it sends
// no ECN marks; HTTP/3 lives in x/net's internal/ tree and cannot be imported. Key updates need no
// flag: x/net/quic starts one by itself after its 100th 1-RTT packet, and answers the peer's.
func planFor(role, testcase string) (plan, error) {
	p := plan{role: role, testcase: testcase}
	switch role {
	case "client":
		switch testcase {
		case "handshake", "transfer", "retry", "keyupdate", "amplificationlimit":
			p.mode = oneConn
		case "multiconnect":
			p.mode = connPerURL
		case "resumption":
			p.mode = resumeAfter1
		default:
			return p, fmt.Errorf("client: %q: %w", testcase, errUnsupported)
		}
	case "server":
		switch testcase {
		case "handshake", "transfer", "multiconnect", "keyupdate", "chacha20", "amplificationlimit":
		case "retry":
			p.requireAddr = true
		default:
			return p, fmt.Errorf("server: %q: %w", testcase, errUnsupported)
		}
	default:
		return p, fmt.Errorf("ROLE must be client or server (got %q)", role)
	}
	return p, nil
}
