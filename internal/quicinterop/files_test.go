package quicinterop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFilesAreDeterministicAndCompared(t *testing.T) {
	c := &Case{Name: "transfer", FileSizes: []int64{10, 1 << 16, 3}}
	a, b := t.TempDir(), t.TempDir()
	na, err := GenerateFiles(a, c, 7)
	if err != nil {
		t.Fatal(err)
	}
	nb, _ := GenerateFiles(b, c, 7)
	if strings.Join(na, ",") != strings.Join(nb, ",") || len(na) != 3 {
		t.Fatalf("names differ for the same seed: %v %v", na, nb)
	}
	if err := CompareDownloads(a, b, na); err != nil {
		t.Fatalf("same seed, same bytes: %v", err)
	}
	if nc, _ := GenerateFiles(t.TempDir(), c, 8); strings.Join(nc, ",") == strings.Join(na, ",") {
		t.Fatal("another seed gives the same names")
	}
	// A download that lost a byte, and one that is missing, fail the check.
	data, _ := os.ReadFile(filepath.Join(b, na[1]))
	data[100] ^= 1
	os.WriteFile(filepath.Join(b, na[1]), data, 0o644)
	os.Remove(filepath.Join(b, na[2]))
	err = CompareDownloads(a, b, na)
	if err == nil || !strings.Contains(err.Error(), "1 of 3 missing, 1 differ") {
		t.Fatalf("got %v", err)
	}
}

func TestDownloadCount(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "downloads"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(dir, "downloads", "a"), []byte("x"), 0o644)
	if got := downloadCount(dir, []string{"a", "b", "c"}); got != "1 of 3 files downloaded" {
		t.Errorf("got %q", got)
	}
}
