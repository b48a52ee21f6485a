package wtsuite

import (
	"strings"
	"testing"
)

func TestDefaultCasesFile(t *testing.T) {
	cases, err := LoadCases("../../conformance/webtransport/cases.yml")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 7 {
		t.Fatalf("%d cases, want upstream's 7", len(cases))
	}
	byName := map[string]*Case{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	dr := byName["transfer-datagram-receive"]
	if len(dr.FileSizes) != 200 || dr.FileSizes[0] != 600 || dr.FileSizes[199] != 998 {
		t.Errorf("datagram files: %d sizes, %v..%v; want 200 of 600..998", len(dr.FileSizes), dr.FileSizes[0], dr.FileSizes[len(dr.FileSizes)-1])
	}
	us := byName["transfer-unidirectional-send"]
	if us.Requester() != "server" || us.Testcase("server") != us.Name || us.Testcase("client") != "transfer" {
		t.Errorf("a *-send case: requester %s, TESTCASE server %s client %s", us.Requester(), us.Testcase("server"), us.Testcase("client"))
	}
	ur := byName["transfer-unidirectional-receive"]
	if ur.Testcase("client") != ur.Name || ur.Testcase("server") != "transfer" {
		t.Errorf("a *-receive case: TESTCASE client %s server %s", ur.Testcase("client"), ur.Testcase("server"))
	}
	if h := byName["handshake"]; h.Testcase("client") != "handshake" || h.Testcase("server") != "handshake" {
		t.Errorf("handshake: both sides get handshake")
	}
}

func TestCasesFileErrorsNameFileAndField(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"cases: []", "x.yml: cases: no test cases"},
		{"cases: [{name: a, abbr: A, checks: [files], stream: sideways, direction: receive, files: [1KiB]}]", "x.yml: cases[0].stream: \"sideways\""},
		{"cases: [{name: a, abbr: A, checks: [files], stream: datagram, direction: up, files: [1KiB]}]", "x.yml: cases[0].direction: \"up\""},
		{"cases: [{name: a, abbr: A, checks: [], stream: datagram, direction: send, files: [1KiB]}]", "x.yml: cases[0].checks: no checks"},
		{"cases: [{name: a, abbr: A, checks: [telepathy]}]", "x.yml: cases[0].checks[0]: unknown check \"telepathy\""},
		{"cases: [{name: a, abbr: A, checks: [files], stream: datagram, direction: send}]", "x.yml: cases[0].files: a transfer case moves files"},
		{"cases: [{name: a, abbr: A, checks: [files], stream: datagram, direction: send, file_series: 200x600}]", "x.yml: cases[0].file_series: \"200x600\""},
		{"cases: [{name: a, abbr: A, checks: [protocol], direction: send}]", "x.yml: cases[0].direction: \"send\" without a stream"},
		{"cases: [{name: a, abbr: A, checks: [protocol], timeout: soon}]", "x.yml: cases[0].timeout: \"soon\""},
		{"cases: [{name: a, abbr: A, checks: [protocol], colour: red}]", "x.yml: cases: unmarshal errors:;   line 1: field colour not found"},
	} {
		_, err := ParseCases("x.yml", []byte(tc.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s:\n got %v\nwant %s...", tc.yaml, err, tc.want)
		}
	}
}
