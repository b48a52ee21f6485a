package quicinterop

import (
	"errors"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/netem"
	"github.com/wirelab/wirelab/internal/profile"
	"github.com/wirelab/wirelab/internal/quiccheck"
)

// shippedCasesAndProfiles loads conformance/quic/testcases.yml and the sim's bundled profiles.
func shippedCasesAndProfiles(t *testing.T) ([]*Case, *profile.File) {
	t.Helper()
	cases, err := LoadCases("../../conformance/quic/testcases.yml")
	if err != nil {
		t.Fatal(err)
	}
	profiles, err := profile.LoadFile("../../images/sim/profiles.yml")
	if err != nil {
		t.Fatal(err)
	}
	return cases, profiles
}

// The shipped test cases parse, and every profile they name resolves.
func TestShippedCases(t *testing.T) {
	cases, profiles := shippedCasesAndProfiles(t)
	byName := map[string]*Case{}
	for _, c := range cases {
		byName[c.Name] = c
		if _, err := profiles.Resolve(c.Profile); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
	for _, n := range []string{"handshake", "transfer", "longrtt", "chacha20", "multiplexing", "retry", "resumption", "zerortt",
		"http3", "blackhole", "keyupdate", "ecn", "amplificationlimit", "handshakeloss", "transferloss", "handshakecorruption",
		"transfercorruption", "ipv6", "v2", "rebind-port", "rebind-addr", "connectionmigration", "transferreorder",
		"goodput", "crosstraffic"} {
		if byName[n] == nil {
			t.Errorf("case %s missing", n)
		}
	}
	if m := byName["multiplexing"]; len(m.FileSizes) != 1999 || m.FileSizes[0] != 32 {
		t.Errorf("multiplexing files: %d", len(m.FileSizes))
	}
	if g := byName["goodput"]; g.Repetitions != 5 || !g.IsMeasurement() || g.FileSizes[0] != 10<<20 {
		t.Errorf("goodput: %+v", g)
	}
	if c := byName["crosstraffic"]; !c.CrossTraffic || c.Limit.Seconds() != 180 || c.FileSizes[0] != 25<<20 {
		t.Errorf("crosstraffic: %+v", c)
	}
	if h := byName["handshakeloss"]; h.Limit.Seconds() != 300 || h.CheckList[1].String() != "handshakeloss" {
		t.Errorf("handshakeloss: %v %v", h.Limit, h.CheckList)
	}
}

// Every check in the catalog decides some shipped case: one that none names is dead code.
func TestShippedCasesUseEveryCheck(t *testing.T) {
	cases, _ := shippedCasesAndProfiles(t)
	used := map[string]bool{}
	for _, c := range cases {
		for _, chk := range c.CheckList {
			used[chk.Name] = true
		}
	}
	for _, n := range quiccheck.Names() {
		if !used[n] {
			t.Errorf("check %s: no case in testcases.yml uses it", n)
		}
	}
}

func TestBadCasesNameFileAndField(t *testing.T) {
	base := "cases:\n  - {name: a, abbr: A, testcase: handshake, files: [1KiB], checks: [files]}\n"
	for _, c := range []struct{ yaml, field string }{
		{"cases:\n  - {name: a, abbr: A, testcase: handshake, files: [1KiB], checks: [files, bogus]}\n", "cases[0].checks[1]"},
		{"cases:\n  - {name: a, abbr: A, testcase: handshake, files: [1KiB], checks: [handshake>=2]}\n", "cases[0].checks[0]"},
		{"cases:\n  - {name: a, abbr: A, testcase: handshake, files: [1KiB], checks: [files=3]}\n", "cases[0].checks[0]"},
		{"cases:\n  - {name: a, abbr: A, testcase: handshake, files: [1GB], checks: [files]}\n", "cases[0].files[0]"},
		{"cases:\n  - {name: a, abbr: A, testcase: handshake, files: [1KiB], checks: []}\n", "cases[0].checks"},
		{"cases:\n  - {name: a, abbr: A, testcase: handshake, files: [1KiB], checks: [files], timeout: soon}\n", "cases[0].timeout"},
		{"cases:\n  - {name: a, abbr: A, testcase: handshake, files: [1KiB], checks: [files], host: server9}\n", "cases[0].host"},
		{"cases:\n  - {name: a, abbr: A, files: [1KiB], checks: [files]}\n", "cases[0].testcase"},
		{base + "  - {name: a, abbr: B, testcase: x, files: [1KiB], checks: [files]}\n", "cases[1].name"},
		{base + "  - {name: b, abbr: A, testcase: x, files: [1KiB], checks: [files]}\n", "cases[1].abbr"},
		{"cases:\n  - {name: a, abbr: A, testcase: h, checks: [files], colour: red}\n", "cases"},
		{"cases:\n  - {name: a, abbr: A, testcase: h, checks: [files], measure: latency}\n", "cases[0].measure"},
		{"cases:\n  - {name: a, abbr: A, testcase: h, checks: [files], repetitions: 5}\n", "cases[0].repetitions"},
		{"cases:\n  - {name: a, abbr: A, testcase: h, checks: [files], measure: goodput, repetitions: 99}\n", "cases[0].repetitions"},
		{"cases:\n  - {name: a, abbr: A, testcase: h, checks: [files], cross_traffic: true}\n", "cases[0].cross_traffic"},
		{"cases:\n  - {name: a, abbr: A, testcase: h, checks: [files], typical_seconds: -1}\n", "cases[0].typical_seconds"},
		{"cases:\n  - {name: a, abbr: A, testcase: h, checks: [files], typical_seconds: 100000}\n", "cases[0].typical_seconds"},
		{"cases:\n  - {name: a, abbr: A, testcase: h, checks: [files], typical_seconds: .nan}\n", "cases[0].typical_seconds"},
		{"cases:\n  - {name: a, abbr: A, testcase: h, checks: [files], typical_seconds: soon}\n", "cases"},
	} {
		_, err := ParseCases("t.yml", []byte(c.yaml))
		var ce *CaseError
		if !errors.As(err, &ce) || ce.Field != c.field || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want field %s", c.yaml, err, c.field)
		}
	}
}

func TestCheckHolds(t *testing.T) {
	c := Check{Name: "x", Op: ">=", Arg: 2}
	if !c.Holds(2) || !c.Holds(3) || c.Holds(1) {
		t.Fatal(">=")
	}
	c = Check{Name: "x", Op: "=", Arg: 1}
	if !c.Holds(1) || c.Holds(2) {
		t.Fatal("=")
	}
}

// Every shipped case has a typical time for the plan's estimate, and a measurement's covers all
// its repetitions (each at least as long as the shortest ordinary case).
func TestShippedCasesHaveTypicalSeconds(t *testing.T) {
	cases, err := LoadCases("../../conformance/quic/testcases.yml")
	if err != nil {
		t.Fatal(err)
	}
	shortest := 0.0
	for _, c := range cases {
		if c.TypicalSeconds <= 0 {
			t.Errorf("%s: no typical_seconds", c.Name)
		}
		if !c.IsMeasurement() && (shortest == 0 || c.TypicalSeconds < shortest) {
			shortest = c.TypicalSeconds
		}
	}
	for _, c := range cases {
		if c.IsMeasurement() && c.TypicalSeconds < float64(c.Repetitions)*shortest {
			t.Errorf("%s: typical_seconds %g, below %d repetitions of the shortest ordinary case's %g", c.Name, c.TypicalSeconds, c.Repetitions, shortest)
		}
	}
	if _, err := ParseCases("t.yml", []byte("cases:\n  - {name: a, abbr: A, testcase: h, checks: [files]}\n")); err != nil {
		t.Errorf("typical_seconds is optional: %v", err)
	}
}

// The loss and corruption cases emulate what upstream's ns-3 scenarios do: drop-rate without a
// burst argument (plain Bernoulli loss, no cap on losses in a row) and corrupt-rate delivering one
// corrupted byte among the first 50 of the UDP payload with a valid checksum.
func TestLossAndCorruptionCasesMatchUpstream(t *testing.T) {
	cases, profiles := shippedCasesAndProfiles(t)
	want := map[string]struct {
		loss, corrupt float64
	}{"handshakeloss": {0.30, 0}, "transferloss": {0.02, 0}, "handshakecorruption": {0, 0.30}, "transfercorruption": {0, 0.02}}
	for _, c := range cases {
		w, ok := want[c.Name]
		if !ok {
			continue
		}
		delete(want, c.Name)
		r, err := profiles.Resolve(c.Profile)
		if err != nil {
			t.Fatal(err)
		}
		l := r.Initial()
		for dir, p := range map[string]netem.Params{"to client": l.ToClient, "to server": l.ToServer} {
			if p.Loss != w.loss || p.Corrupt != w.corrupt || p.LossMaxRun != 0 {
				t.Errorf("%s %s: loss %v (max run %d), corrupt %v; want %v, no cap, %v", c.Name, dir, p.Loss, p.LossMaxRun, p.Corrupt, w.loss, w.corrupt)
			}
			if w.corrupt > 0 && (!p.CorruptDeliver || p.CorruptWindow != 50) {
				t.Errorf("%s %s: corruption deliver=%v window=%d, want delivered within the first 50 bytes", c.Name, dir, p.CorruptDeliver, p.CorruptWindow)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("cases missing from testcases.yml: %v", want)
	}
}
