package quiccheck

import "sort"

// catalog lists every trace check; each is defined in its own file. A name in testcases.yml
// that is not here is an unknown check.
var catalog = []*Check{
	&handshake,
	&transfer,
	&retry,
	&v2,
	&versionNegotiation,
	&chacha20,
	&http3,
	&resumption,
	&zeroRTT,
	&keyUpdate,
	&multiplexing,
	&ecn,
	&amplificationLimit,
	&rebindPort,
	&rebindAddr,
	&connectionMigration,
	&ipv6,
	&longRTT,
	&handshakeLoss,
	&handshakeCorruption,
}

// Lookup returns the check testcases.yml calls name.
func Lookup(name string) (*Check, bool) {
	for _, c := range catalog {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// Names lists the checks, sorted.
func Names() []string {
	var out []string
	for _, c := range catalog {
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}

// LongHeadersSuffice reports whether every named check reads only long headers (so the trace
// can be loaded with quictrace.LongHeaderFilter). An unknown name needs the whole trace.
func LongHeadersSuffice(names []string) bool {
	for _, n := range names {
		if c, ok := Lookup(n); !ok || c.Reads != LongHeaders {
			return false
		}
	}
	return true
}
