package simstats

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The final stats.json of a stopped sim is read with every counter in place.
func TestReadFinal(t *testing.T) {
	st, err := ReadFile(filepath.Join("testdata", "final.json"))
	if err != nil {
		t.Fatal(err)
	}
	up, down := st.ToServer, st.ToClient
	if st.Rebinds != 4 || up.Dropped.Loss != 3 || up.Dropped.GELoss != 1 || up.Dropped.Queue != 2 || up.Dropped.Blackhole != 4 ||
		up.Corrupted != 11 || down.Dropped.NAT != 12 || down.Reordered != 2 || down.OutOfOrder != 9 || st.IO.Writes != 9968 || !st.Final {
		t.Errorf("counters: %+v", st)
	}
}

// A live stats.json (the sim still running or killed), one from an image without the mark, a
// missing or a malformed one is refused with an error naming the file.
func TestReadRefusesWhatIsNotFinal(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "malformed.json")
	if err := os.WriteFile(bad, []byte(`{"rebinds": "three"`), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, notFinal := range map[string]bool{
		filepath.Join("testdata", "live.json"):     true,
		filepath.Join("testdata", "unmarked.json"): true,
		filepath.Join(dir, "missing.json"):         true,
		bad:                                        false,
	} {
		_, err := ReadFile(path)
		if err == nil || !strings.Contains(err.Error(), path) || errors.Is(err, ErrNotFinal) != notFinal {
			t.Errorf("%s: error %v", path, err)
		}
	}
}

// Read finds the file in a cell's sim folder.
func TestReadCell(t *testing.T) {
	cell := t.TempDir()
	if _, err := Read(cell); !errors.Is(err, ErrNotFinal) {
		t.Fatalf("empty cell: %v", err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "final.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(cell, "sim"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cell, "sim", File), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := Read(cell); err != nil || st.Seed != 7 {
		t.Fatalf("seed %d, %v", st.Seed, err)
	}
}
