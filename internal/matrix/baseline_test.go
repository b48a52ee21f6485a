package matrix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var testUniverse = Universe{AxisServer: {"haproxy", "nginx"}, AxisClient: {"quic-go", "aioquic"}, AxisCase: {"handshake", "transfer"}}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "expected.yml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A bad or stale entry is an error naming the file, the entry and the field.
func TestLoadBaselineRejectsBadEntries(t *testing.T) {
	for body, want := range map[string]string{
		"expected: [{server: haproxy, client: '*', case: transfer, status: failing, reason: x}]":    "expected[0].status",
		"expected: [{server: haproxy, client: '*', case: transfer, status: fail}]":                  "expected[0].reason",
		"expected: [{server: caddy, client: '*', case: transfer, status: fail, reason: x}]":         "expected[0].server: \"caddy\" matches no server",
		"expected: [{server: haproxy, client: '[', case: transfer, status: fail, reason: x}]":       "expected[0].client",
		"expected: [{server: haproxy, client: '*', case: zerortt, status: fail, reason: x}]":        "expected[0].case",
		"expected: [{server: haproxy, client: '*', case: transfer, status: fail, reason: x, y: 1}]": "expected[0].y: this suite has no axis \"y\"",
	} {
		if _, err := LoadBaseline(writeFile(t, body), testUniverse); err == nil || !strings.Contains(err.Error(), want) ||
			!strings.Contains(err.Error(), "expected.yml") {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// Only an unexpected failure is a regression; an expected failure that passed is reported;
// flaky accepts both outcomes.
func TestBaselineCompare(t *testing.T) {
	b, err := LoadBaseline(writeFile(t, `expected:
  - {server: haproxy, client: '*', case: transfer, status: fail, reason: resets late requests}
  - {server: nginx, client: aioquic, case: handshake, status: flaky, reason: handshake deadlock}
`), testUniverse)
	if err != nil {
		t.Fatal(err)
	}
	r := func(server, client, c, result string) Result {
		return Result{Cell: Cell{Server: server, Client: client, Case: c}, Result: result}
	}
	rep := b.Compare([]Result{
		r("haproxy", "quic-go", "transfer", Failed),     // expected
		r("haproxy", "aioquic", "transfer", Succeeded),  // newly passing
		r("nginx", "aioquic", "handshake", Failed),      // flaky: expected
		r("nginx", "aioquic", "transfer", Failed),       // regression
		r("nginx", "quic-go", "handshake", Unsupported), // nothing
		r("nginx", "quic-go", "transfer", Succeeded),    // nothing
	})
	if len(rep.Regressions) != 1 || rep.Regressions[0].Server != "nginx" || rep.Regressions[0].Case != "transfer" ||
		len(rep.Expected) != 2 || len(rep.NewlyPassing) != 1 || rep.NewlyPassing[0].Client != "aioquic" {
		t.Errorf("%+v", rep)
	}
}

// A written baseline holds every failed cell with its reason (an old entry's reason wins), keeps
// old entries for cells the run did not cover, and loads back to the same verdict.
func TestWriteBaselineRoundTrip(t *testing.T) {
	old, err := LoadBaseline(writeFile(t, `expected:
  - {server: haproxy, client: quic-go, case: transfer, status: fail, reason: the finding}
  - {server: nginx, client: quic-go, case: handshake, status: fail, reason: not run this time}
  - {server: nginx, client: "*", case: handshake, status: flaky, reason: a flake that passed this time}
`), testUniverse)
	if err != nil {
		t.Fatal(err)
	}
	results := []Result{
		{Cell: Cell{Server: "haproxy", Client: "quic-go", Case: "transfer"}, Result: Failed, Reason: "x"},
		{Cell: Cell{Server: "nginx", Client: "aioquic", Case: "transfer"}, Result: Failed, Reason: "stream   reset\nby peer"},
		{Cell: Cell{Server: "haproxy", Client: "aioquic", Case: "handshake"}, Result: Succeeded},
		{Cell: Cell{Server: "nginx", Client: "aioquic", Case: "handshake"}, Result: Succeeded},
	}
	p := filepath.Join(t.TempDir(), "expected.yml")
	if err := WriteBaseline(p, results, old); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBaseline(p, testUniverse)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	for _, want := range []string{"reason: the finding", "reason: stream reset by peer", "reason: not run this time",
		"client: '*'\n    case: handshake\n    status: flaky\n    reason: a flake that passed this time"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("written baseline lacks %q:\n%s", want, data)
		}
	}
	if rep := b.Compare(results); len(rep.Regressions) != 0 || len(rep.Expected) != 2 || len(rep.FlakyPassed) != 1 {
		t.Errorf("%+v", rep)
	}
}
