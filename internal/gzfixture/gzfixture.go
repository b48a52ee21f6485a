// Package gzfixture reads the gzip-compressed fixtures tests keep in their testdata (stored
// tshark output, browser NetLogs): a test that cannot read one fails.
package gzfixture

import (
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// Read returns the decompressed content of the gzip file at path.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return data
}
