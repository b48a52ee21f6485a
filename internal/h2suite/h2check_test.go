package h2suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/matrix"
)

func TestH2checkReportVerdicts(t *testing.T) {
	p := filepath.Join(t.TempDir(), "report.json")
	os.WriteFile(p, []byte(`{"format":2,"cases":[
		{"case":"a","requirement":"RFC 9113 §6.9.1","result":"passed"},
		{"case":"b","requirement":"RFC 9113 §6.9","result":"failed","reason":"no WINDOW_UPDATE for stream 3 in 5s"},
		{"case":"c","requirement":"RFC 9113 §6.1","result":"skipped","skip":"window-not-enforced","reason":"the server accepts DATA beyond its window even unpadded"},
		{"case":"d","requirement":"RFC 9113 §6.1","result":"maybe"},
		{"case":"e","requirement":"RFC 9113 §6.1","result":"skipped","reason":"POST /upload answered 405"},
		{"case":"f","requirement":"RFC 9113 §6.1","result":"skipped","skip":"tuesday"},
		{"case":"g","requirement":"RFC 9113 §6.1","result":"passed","skip":"window-too-large"}]}`), 0o644)
	for name, want := range map[string]string{"a": matrix.Succeeded, "b": matrix.Failed, "c": matrix.Unsupported} {
		v, err := ReadH2checkReport(p, name)
		if err != nil || v.Matrix() != want || v.SkippedAtRunTime() != (name == "c") {
			t.Errorf("%s: %v %+v", name, err, v)
		}
	}
	if v, _ := ReadH2checkReport(p, "c"); v.Skip != "window-not-enforced" {
		t.Errorf("skip cause %q", v.Skip)
	}
	for name, want := range map[string]string{
		"d": `result "maybe"`,
		"e": `case e: skipped with skip ""`, // a skip that names no server behaviour
		"f": `case f: skipped with skip "tuesday"`,
		"g": `case g: result passed with skip "window-too-large"`,
		"h": "no verdict for case h",
	} {
		if _, err := ReadH2checkReport(p, name); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "report.json") {
			t.Errorf("%s: %v, want an error naming the file and saying %s", name, err, want)
		}
	}
	os.WriteFile(p, []byte(`{"cases":[{"case":"a"`), 0o644)
	if _, err := ReadH2checkReport(p, "a"); err == nil || !strings.Contains(err.Error(), "report.json") {
		t.Errorf("a cut report: %v", err)
	}
}
