package h2suite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/tshark"
)

// h2 below 0.8x HTTP/1.1 is flagged at high BDP only; a failed side is noted, not paired.
func TestUploadRowsPairFlagAndNote(t *testing.T) {
	secs := []*Section{
		{Name: "uf1", Client: ClientH2upload, Params: "-proto h1", Profile: "fast", BDP: "high"},
		{Name: "uf2", Client: ClientH2upload, Params: "-proto h2", Profile: "fast", BDP: "high"},
		{Name: "us1", Client: ClientH2upload, Params: "-proto h1", Profile: "slow", BDP: "low"},
		{Name: "us2", Client: ClientH2upload, Params: "-proto h2", Profile: "slow", BDP: "low"},
		{Name: "h2spec", Client: ClientH2spec},
	}
	dir := t.TempDir()
	res := []matrix.Result{
		{Cell: matrix.Cell{Server: "a", Case: "uf1"}, Result: matrix.Succeeded, Values: []float64{100, 90, 110}},
		{Cell: matrix.Cell{Server: "a", Case: "uf2"}, Result: matrix.Succeeded, Values: []float64{40, 50, 45}, Dir: dir},
		{Cell: matrix.Cell{Server: "a", Case: "us1"}, Result: matrix.Succeeded, Values: []float64{4.8}},
		{Cell: matrix.Cell{Server: "a", Case: "us2"}, Result: matrix.Succeeded, Values: []float64{3.0}, Dir: dir},
		{Cell: matrix.Cell{Server: "b", Case: "uf1"}, Result: matrix.Succeeded, Values: []float64{100}},
		{Cell: matrix.Cell{Server: "b", Case: "uf2"}, Result: matrix.Failed, Reason: "1 of 5 uploads failed", Values: []float64{95}, Dir: dir},
		{Cell: matrix.Cell{Server: "a", Case: "h2spec"}, Result: matrix.Failed},
	}
	rows := UploadRows(context.Background(), &tshark.Tool{}, secs, res)
	if len(rows) != 3 {
		t.Fatalf("%+v", rows)
	}
	fast, slow, b := rows[0], rows[1], rows[2]
	if fast.Ratio != 0.45 || !fast.Flagged || slow.Ratio != 0.625 || slow.Flagged {
		t.Fatalf("fast %+v slow %+v", fast, slow)
	}
	if b.Flagged || !strings.Contains(b.Note, "uf2 failed: 1 of 5 uploads failed") || !strings.Contains(b.Note, "windows:") {
		t.Fatalf("b %+v", b)
	}
	p := filepath.Join(dir, "upload.csv")
	if err := WriteUploadCSV(p, rows); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if !strings.HasPrefix(string(data), "server,profile,bdp,h1_mbps,h2_mbps,h2_over_h1,flagged") || !strings.Contains(string(data), "a,fast,high,100.00,45.00,0.45,true") {
		t.Fatalf("%s", data)
	}
}

func TestOpeningGrantFromTheClientsRecord(t *testing.T) {
	p := filepath.Join(t.TempDir(), "upload.json")
	os.WriteFile(p, []byte(`{"reps":[{"h2":{"initial_connection_window_update":0}},{"h2":{"initial_connection_window_update":0}},{"h2":{"initial_connection_window_update":983041}}]}`), 0o644)
	if g, ok := openingGrant(p); !ok || g != 0 {
		t.Fatalf("median of 0, 0, 983041: %d %v", g, ok)
	}
	os.WriteFile(p, []byte(`{"proto":"h1","reps":[{"seconds":1}]}`), 0o644)
	if _, ok := openingGrant(p); ok {
		t.Fatal("an HTTP/1.1 record has no grant")
	}
}

// upload.csv reads back as it was written; a foreign file names its line.
func TestReadUploadCSVRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rows := []UploadRow{
		{Server: "a", Profile: "fast", BDP: "high", H1: 100, H2: 45, Ratio: 0.45, Flagged: true,
			Windows: &ServerWindows{InitialWindow: 65535, ConnWindow: 1 << 20, StreamUpdates: 305, MedianStreamIncr: 32768, MedianUpdateGapMs: 1.5}},
		{Server: "b", Profile: "slow", BDP: "low", H2: 2.4, Note: "upload-slow-h1 failed: no HTTP/1.1; "},
	}
	p := filepath.Join(dir, "upload.csv")
	if err := WriteUploadCSV(p, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadUploadCSV(p)
	if err != nil || len(got) != 2 || got[0].Windows == nil || *got[0].Windows != *rows[0].Windows || got[1].Windows != nil ||
		got[0].Ratio != 0.45 || !got[0].Flagged || got[1].Note != rows[1].Note || got[1].H2 != 2.4 {
		t.Fatalf("%v %+v", err, got)
	}
	os.WriteFile(p, []byte(strings.Join(uploadHeader, ",")+"\na,fast,high,x,1,1,false,,,,,,\n"), 0o644)
	if _, err := ReadUploadCSV(p); err == nil || !strings.Contains(err.Error(), "upload.csv:2: h1_mbps") {
		t.Fatalf("bad number: %v", err)
	}
	os.WriteFile(p, []byte("chain,server\n"), 0o644)
	if _, err := ReadUploadCSV(p); err == nil || !strings.Contains(err.Error(), "upload.csv:1") {
		t.Fatalf("bad header: %v", err)
	}
}
