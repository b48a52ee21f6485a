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
	os.WriteFile(p, []byte(`{"cases":[
		{"case":"a","requirement":"RFC 9113 §6.9.1","result":"passed"},
		{"case":"b","requirement":"RFC 9113 §6.9","result":"failed","reason":"no WINDOW_UPDATE for stream 3 in 5s"},
		{"case":"c","requirement":"RFC 9113 §6.1","result":"skipped","reason":"POST /upload answered 405"},
		{"case":"d","requirement":"RFC 9113 §6.1","result":"maybe"}]}`), 0o644)
	for name, want := range map[string]string{"a": matrix.Succeeded, "b": matrix.Failed, "c": matrix.Unsupported} {
		v, err := ReadH2checkReport(p, name)
		if err != nil || v.Matrix() != want {
			t.Errorf("%s: %v %+v", name, err, v)
		}
	}
	if _, err := ReadH2checkReport(p, "d"); err == nil || !strings.Contains(err.Error(), `result "maybe"`) {
		t.Errorf("an unknown outcome: %v", err)
	}
	if _, err := ReadH2checkReport(p, "e"); err == nil || !strings.Contains(err.Error(), "no verdict for case e") {
		t.Errorf("a missing case: %v", err)
	}
	os.WriteFile(p, []byte(`{"cases":[{"case":"a"`), 0o644)
	if _, err := ReadH2checkReport(p, "a"); err == nil || !strings.Contains(err.Error(), "report.json") {
		t.Errorf("a cut report: %v", err)
	}
}
