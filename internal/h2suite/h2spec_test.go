package h2suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestH2specJUnitOutcomesAndIDs(t *testing.T) {
	cases, err := ReadH2specJUnit("testdata/h2spec-junit-mixed.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"http2/6.9.1/1 skipped", "http2/6.9.1/2 failed", "http2/6.9.1/3 passed", "http2/6.9.2/1 failed"}
	var got []string
	for _, c := range cases {
		got = append(got, c.ID+" "+c.Result)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got %v", got)
	}
	if cases[1].Message != "Expect: GOAWAY Frame (Error Code: FLOW_CONTROL_ERROR) Actual: Connection closed" {
		t.Fatalf("message %q", cases[1].Message)
	}
	ok, reason, details := H2specVerdict(cases)
	if ok || reason != "h2spec: 2 of 4 cases failed: http2/6.9.1/2 http2/6.9.2/1" || details != "h2spec: 1 passed, 2 failed, 1 skipped of 4" {
		t.Fatalf("%v %q %q", ok, reason, details)
	}
}

// Skips are counted, not failed: a section of passes and skips passes, and says so.
func TestH2specSkipsDoNotFailButShow(t *testing.T) {
	ok, reason, details := H2specVerdict([]H2specCase{{ID: "a/1", Result: CasePassed}, {ID: "a/2", Result: CaseSkipped}})
	if !ok || reason != "" || details != "h2spec: 1 passed, 0 failed, 1 skipped of 2" {
		t.Fatalf("%v %q %q", ok, reason, details)
	}
}

func TestH2specReportMissingOrCorrupt(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadH2specJUnit(filepath.Join(dir, "none.xml")); err == nil {
		t.Fatal("a missing report read")
	}
	p := filepath.Join(dir, "cut.xml")
	data, _ := os.ReadFile("testdata/h2spec-junit-mixed.xml")
	os.WriteFile(p, data[:len(data)/2], 0o644)
	if _, err := ReadH2specJUnit(p); err == nil || !strings.Contains(err.Error(), "cut.xml") {
		t.Fatalf("a cut report: %v", err)
	}
	os.WriteFile(p, []byte(`<?xml version="1.0"?><testsuites></testsuites>`), 0o644)
	if _, err := ReadH2specJUnit(p); err == nil || !strings.Contains(err.Error(), "no test case") {
		t.Fatalf("an empty report: %v", err)
	}
}

// h2spec copies a peer's bytes into its report unescaped: a NUL there must not lose the report.
func TestH2specReportWithControlBytes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "junit.xml")
	os.WriteFile(p, []byte("<?xml version=\"1.0\"?><testsuites><testsuite package=\"http2/5.1\">"+
		"<testcase classname=\"x\"><error>Actual: DATA \x00\x01 frame</error></testcase></testsuite></testsuites>"), 0o644)
	cases, err := ReadH2specJUnit(p)
	if err != nil || len(cases) != 1 || cases[0].Result != CaseFailed || cases[0].Message != "Actual: DATA ?? frame" {
		t.Fatalf("%v %+v", err, cases)
	}
}
