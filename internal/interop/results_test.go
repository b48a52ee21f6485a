package interop

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJournalKeepsWhatFinished(t *testing.T) {
	p := filepath.Join(t.TempDir(), "results.jsonl")
	j, done, err := OpenJournal(p)
	if err != nil || len(done) != 0 {
		t.Fatal(err, done)
	}
	j.Add(CellResult{Server: "s", Client: "c", Case: "handshake", Result: Succeeded})
	j.Close()
	os.WriteFile(p, append(mustRead(t, p), []byte(`{"server":"s","client":"c","case":"transf`)...), 0o644) // killed mid-line
	j, done, err = OpenJournal(p)
	if err != nil || len(done) != 1 || done[0].Case != "handshake" {
		t.Fatalf("resume: %v %+v", err, done)
	}
	j.Close()
}

func mustRead(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSummaryIsClientMajorLikeUpstream(t *testing.T) {
	cases := []*Case{{Name: "handshake", Abbr: "H"}, {Name: "transfer", Abbr: "DC"}}
	res := []CellResult{
		{Server: "s1", Client: "c2", Case: "transfer", Result: Failed},
		{Server: "s2", Client: "c1", Case: "handshake", Result: Succeeded},
	}
	s := Summarize(cases, []string{"c1", "c2"}, []string{"s1", "s2"}, res, nil)
	// pairs: c1-s1, c1-s2, c2-s1, c2-s2
	if len(s.Results) != 4 || len(s.Results[1]) != 1 || s.Results[1][0].Abbr != "H" || s.Results[2][0].Result != Failed {
		t.Fatalf("%+v", s.Results)
	}
	if s.Tests["DC"].Name != "transfer" || s.QUICVersion != "0x1" {
		t.Fatalf("%+v", s.Tests)
	}
}

func TestJUnit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "junit.xml")
	err := WriteJUnit(p, []CellResult{
		{Server: "s", Client: "c", Case: "handshake", Result: Succeeded},
		{Server: "s", Client: "c", Case: "retry", Result: Failed, Reason: "retry: no Retry packet from the server"},
		{Server: "s", Client: "c", Case: "v2", Result: Unsupported},
	})
	if err != nil {
		t.Fatal(err)
	}
	data := mustRead(t, p)
	var doc struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Skipped  int `xml:"skipped,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || doc.Suites[0].Tests != 3 || doc.Suites[0].Failures != 1 || doc.Suites[0].Skipped != 1 {
		t.Fatalf("%v %+v", err, doc)
	}
	if !strings.Contains(string(data), `<failure message="retry: no Retry packet from the server">`) {
		t.Fatal(string(data))
	}
}
