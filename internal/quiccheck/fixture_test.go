package quiccheck

import (
	"bytes"
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/gzfixture"
	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/tshark"
	"github.com/wirelab/wirelab/internal/tshark/tsharktest"
)

// Fixtures are recorded by conformance/quic/fixtures/gen.sh.
const testdata = "../../conformance/quic/testdata"

var (
	loadMu sync.Mutex
	loaded = map[string]*quictrace.Trace{}
)

// fixture runs the one tshark pass over testdata/<name>.pcap (+ .keys), cached per test binary.
func fixture(t *testing.T, r *tshark.Tool, name string) *quictrace.Trace {
	t.Helper()
	return fixtureWith(t, r, name, "")
}

// fixtureWith is fixture with a display filter (quictrace.LongHeaderFilter or "").
func fixtureWith(t *testing.T, r *tshark.Tool, name, filter string) *quictrace.Trace {
	t.Helper()
	loadMu.Lock()
	defer loadMu.Unlock()
	key := name + "|" + filter
	if tr, ok := loaded[key]; ok {
		return tr
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tr, err := quictrace.Load(ctx, r, filepath.Join(testdata, name+".pcap"), filepath.Join(testdata, name+".keys"), filter)
	if err != nil {
		t.Fatal(err)
	}
	loaded[key] = tr
	return tr
}

// filteredFixture is what a cell whose checks all read LongHeaders loads.
func filteredFixture(t *testing.T, r *tshark.Tool, name string) *quictrace.Trace {
	t.Helper()
	return fixtureWith(t, r, name, quictrace.LongHeaderFilter)
}

// Each check passes on its good fixture and fails on a bad one.
var fixtureCases = []struct {
	check, fixture string
	pass           bool
}{
	{"handshake", "handshake", true},
	{"handshake", "retry", false},          // a Retry
	{"handshake", "v2", false},             // server Initials v2
	{"handshake", "fullhandshakes", false}, // 2 handshakes
	{"transfer", "transfer", true},
	{"transfer", "resumption", false},
	{"retry", "retry", true},
	{"retry", "handshake", false},
	{"v2", "v2", true},
	{"v2", "handshake", false},
	{"versionnegotiation", "versionnegotiation", true},
	{"versionnegotiation", "handshake", false},  // no Version Negotiation
	{"versionnegotiation", "vn-abandon", false}, // VN, but the client does not try again
	{"versionnegotiation", "v2", false},         // compatible negotiation is not VN
	{"chacha20", "chacha20", true},
	{"chacha20", "handshake", false},
	{"http3", "handshake", true},
	{"http3", "zerortt", true},
	{"http3", "aioquic-noh3", false}, // client opens no control/QPACK streams
	{"resumption", "resumption", true},
	{"resumption", "fullhandshakes", false}, // Certificate in both handshakes
	{"resumption", "handshake", false},
	{"zerortt", "zerortt", true},
	{"zerortt", "resumption", false}, // resumed without 0-RTT
	{"keyupdate", "keyupdate", true},
	{"keyupdate", "transfer", false},
	{"keyupdate", "aioquic-serverkeyupdate", false}, // the server initiated, the client only responded
	{"multiplexing", "handshake", true},
	{"multiplexing", "manystreams", false}, // initial_max_streams_bidi 5000
	{"ecn", "handshake", true},
	{"ecn", "aioquic-noh3", false}, // the aioquic client sends no ECT marks
	{"amplificationlimit", "amplification", true},
	{"amplificationlimit", "handshake", false}, // one small certificate: the limit never binds
	{"rebind-port", "rebind", true},
	{"rebind-port", "migration", true},
	{"rebind-port", "handshake", false}, // one path
	{"rebind-addr", "rebind", false},    // loopback: the port changes, the IP does not
	{"connectionmigration", "preferredaddr", true},
	{"connectionmigration", "rebind", false},                // NAT rebinding keeps the DCID
	{"connectionmigration", "migration", false},             // no preferred address offered
	{"connectionmigration", "preferredaddr-ignored", false}, // offered, the client moved its own address instead
	{"ipv6", "ipv6", true},
	{"ipv6", "handshake", false},
	{"longrtt", "longrtt", true},
	{"longrtt", "handshake", false}, // one ClientHello
	{"handshakeloss", "handshake", false},
	{"handshakecorruption", "handshake", false},
}

// lookup is the catalog's check name; the test stops if there is none.
func lookup(t *testing.T, name string) *Check {
	t.Helper()
	c, ok := Lookup(name)
	if !ok {
		t.Fatalf("no check %q in the catalog", name)
	}
	return c
}

// run runs the catalog's check name on tr.
func run(t *testing.T, name string, tr *quictrace.Trace) Result {
	t.Helper()
	return lookup(t, name).Run(tr)
}

func TestChecksOnFixtures(t *testing.T) {
	r := tsharktest.Need(t)
	for _, c := range fixtureCases {
		t.Run(c.check+"/"+c.fixture, func(t *testing.T) {
			res := run(t, c.check, fixture(t, r, c.fixture))
			t.Log(res)
			if res.OK() != c.pass {
				t.Errorf("%s on %s: got %s, want pass=%v", c.check, c.fixture, res, c.pass)
			}
		})
	}
}

// Every check has a good and a bad case (real fixture or synthetic, see below).
func TestEveryCheckHasCases(t *testing.T) {
	good, bad := map[string]bool{}, map[string]bool{}
	for _, c := range fixtureCases {
		if c.pass {
			good[c.check] = true
		} else {
			bad[c.check] = true
		}
	}
	bad["amplificationlimit"] = true   // TestAmplificationLimitSynthetic
	good["rebind-addr"] = true         // TestRebindAddrSynthetic
	good["handshakeloss"] = true       // TestFiftyHandshakes
	good["handshakecorruption"] = true // TestFiftyHandshakes
	for _, n := range Names() {
		if !good[n] || !bad[n] {
			t.Errorf("check %s: good case %v, bad case %v", n, good[n], bad[n])
		}
	}
}

// Every long-header check gives the same verdict on the handshake datagrams alone as on the
// whole trace, for every fixture: the filtered pass loses nothing those checks read.
func TestLongHeaderFilterKeepsVerdicts(t *testing.T) {
	r := tsharktest.Need(t)
	for _, fc := range fixtureCases {
		if lookup(t, fc.check).Reads != LongHeaders {
			continue
		}
		full := fixture(t, r, fc.fixture)
		short := filteredFixture(t, r, fc.fixture)
		if !short.LongHeadersOnly || len(short.Datagrams) >= len(full.Datagrams) && fc.fixture == "transfer" {
			t.Fatalf("%s: filtered trace has %d of %d datagrams", fc.fixture, len(short.Datagrams), len(full.Datagrams))
		}
		a, b := run(t, fc.check, full), run(t, fc.check, short)
		if a.OK() != b.OK() || a.OK() != fc.pass {
			t.Errorf("%s on %s: whole trace %v, handshake datagrams %v, want pass=%v", fc.check, fc.fixture, a, b, fc.pass)
		}
	}
	// A check that reads 1-RTT packets is not in the set: on the filtered trace it would fail.
	if keyUpdate.Reads == LongHeaders || run(t, "keyupdate", filteredFixture(t, r, "keyupdate")).OK() {
		t.Error("keyupdate must need the whole trace")
	}
}

// A pcapng with the secrets injected (what each cell leaves for Wireshark) decrypts without the
// keylog: the checks pass on it as on the pcap with its keylog.
func TestInjectSecrets(t *testing.T) {
	r := tsharktest.Need(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := filepath.Join(t.TempDir(), "handshake.pcapng")
	if err := r.InjectSecrets(ctx, filepath.Join(testdata, "handshake.pcap"), filepath.Join(testdata, "handshake.keys"), out); err != nil {
		t.Fatal(err)
	}
	tr, err := quictrace.Load(ctx, r, out, "", "") // no keylog: the secrets are in the file
	if err != nil {
		t.Fatal(err)
	}
	if res := checkHandshake(tr); !res.OK() {
		t.Fatal(res)
	}
	if res := checkHTTP3(tr); !res.OK() {
		t.Fatal(res)
	}
}

// The checks on the stored tshark output for testdata/handshake.pcap, which needs no docker
// (quictrace's TestStoredSample asserts the parse and refreshes the file): the verdicts below,
// and every fixtureCases row on the handshake fixture, so a plain go test sees most checks fail.
func TestChecksOnStoredSample(t *testing.T) {
	tr, err := quictrace.Parse(bytes.NewReader(gzfixture.Read(t, filepath.Join(testdata, "handshake.tshark.json.gz"))))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"handshake": true, "http3": true, "ecn": true, "amplificationlimit": false, "retry": false, "v2": false, "keyupdate": false} {
		if res := run(t, name, tr); res.OK() != want {
			t.Errorf("%s: %s, want pass=%v", name, res, want)
		}
	}
	for _, c := range fixtureCases {
		if c.fixture != "handshake" {
			continue
		}
		if res := run(t, c.check, tr); res.OK() != c.pass {
			t.Errorf("%s: %s, want pass=%v as on the fixture", c.check, res, c.pass)
		}
	}
}
