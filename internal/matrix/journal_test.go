package matrix

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/prereq"
)

func TestJournalKeepsWhatFinished(t *testing.T) {
	p := filepath.Join(t.TempDir(), "results.jsonl")
	j, done, err := OpenJournal(p)
	if err != nil || len(done) != 0 {
		t.Fatal(err, done)
	}
	j.Add(Result{Cell: Cell{Server: "s", Client: "c", Case: "handshake"}, Result: Succeeded})
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

func TestJUnit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "junit.xml")
	err := WriteJUnit(p, "quic", Completeness{}, []Result{
		{Cell: Cell{Server: "s", Client: "c", Case: "handshake"}, Result: Succeeded},
		{Cell: Cell{Server: "s", Client: "c", Case: "retry"}, Result: Failed, Reason: "retry: no Retry packet from the server"},
		{Cell: Cell{Server: "s", Client: "c", Case: "v2"}, Result: Unsupported},
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

func TestProgressHeartbeatNamesRunningCells(t *testing.T) {
	var b strings.Builder
	p := newProgress(&b, 2, 0)
	p.details = "goodput "
	p.started("a_b/goodput")
	p.tick(p.lastLine.Add(10 * time.Second))
	if b.Len() != 0 {
		t.Fatalf("printed before a heartbeat passed: %q", b.String())
	}
	p.tick(p.lastLine.Add(heartbeat))
	if !strings.Contains(b.String(), "[0/2] running: a_b/goodput (") {
		t.Fatalf("heartbeat: %q", b.String())
	}
	p.record(Result{Cell: Cell{Server: "a", Client: "b", Case: "goodput"}, Result: Succeeded, Details: "9000 (± 12) kbps"})
	if len(p.running) != 0 || !strings.Contains(b.String(), "goodput 9000 (± 12) kbps") {
		t.Fatalf("after record: %v %q", p.running, b.String())
	}
}

// A journal on a full device reports the error with its path instead of losing the result quietly.
func TestJournalAddOnFullDiskSaysSo(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		prereq.Missing(t, "/dev/full ("+err.Error()+")", "every Linux machine has it")
	}
	j := &Journal{f: f, path: "/dev/full"}
	defer j.Close()
	err = j.Add(Result{Cell: Cell{Server: "s", Client: "c", Case: "handshake"}, Result: Succeeded})
	if err == nil || !strings.Contains(err.Error(), "/dev/full") || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("got %v", err)
	}
}

func TestDiskRoomOfAMissingFolderIsAnError(t *testing.T) {
	if err := checkDiskRoom(t.TempDir()); err != nil {
		prereq.Missing(t, "room in the temp dir ("+err.Error()+")", "a CI machine with free disk")
	}
	if err := checkDiskRoom("/nonexistent-wirelab"); err == nil {
		t.Fatal("a missing folder has room?")
	}
}

// A resume after a kill mid-line: the fragment is cut off, so the next result is a line of its
// own (before, it was glued to the fragment and both were lost to every reader).
func TestJournalResumeAfterACutLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "results.jsonl")
	os.WriteFile(p, []byte(`{"server":"s","client":"c","case":"handshake","result":"succeeded"}`+"\n"+`{"server":"s","cli`), 0o644)
	j, done, err := OpenJournal(p)
	if err != nil || len(done) != 1 {
		t.Fatal(err, done)
	}
	j.Add(Result{Cell: Cell{Server: "s", Client: "c", Case: "retry"}, Result: Failed})
	j.Close()
	rs, err := ReadJournal(p)
	if err != nil || len(rs) != 2 || rs[1].Case != "retry" {
		t.Fatalf("%v %+v", err, rs)
	}
}

// ReadJournal names the file and the line of anything that is not a result; a last line cut
// before its newline is left out.
func TestReadJournalStrict(t *testing.T) {
	dir := t.TempDir()
	good := `{"server":"s","client":"c","case":"handshake","result":"succeeded"}` + "\n"
	for _, c := range []struct{ name, body, want string }{
		{"cut.jsonl", good + `{"server":"s"`, ""},
		{"garbage.jsonl", good + "\n" + `{"server":"s",` + "\n" + good, "garbage.jsonl:3: not a result"},
		{"word.jsonl", good + `{"server":"s","case":"x","result":"passed"}` + "\n", `word.jsonl:2: result "passed"`},
		{"noserver.jsonl", `{"case":"x","result":"failed"}` + "\n", "noserver.jsonl:1: a result without server"},
	} {
		p := filepath.Join(dir, c.name)
		os.WriteFile(p, []byte(c.body), 0o644)
		rs, err := ReadJournal(p)
		if c.want == "" {
			if err != nil || len(rs) != 1 {
				t.Errorf("%s: %v %+v", c.name, err, rs)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := ReadJournal(filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Error("a missing file read without error")
	}
}
