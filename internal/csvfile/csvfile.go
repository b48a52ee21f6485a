// Package csvfile writes and reads the lab's CSV outputs (upload.csv, bench.csv): a fixed header,
// then records; reading checks the header so a file of another kind is an error naming it.
package csvfile

import (
	"encoding/csv"
	"fmt"
	"os"
	"strings"
)

// Write writes header and rows to path (created or truncated).
func Write(path string, header []string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write(header)
	_ = w.WriteAll(rows) // WriteAll flushes
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Read reads path and returns its records after the header, which must be header.
func Read(path string, header []string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(header, ",") {
		return nil, fmt.Errorf("%s:1: want the header %s", path, strings.Join(header, ","))
	}
	return recs[1:], nil
}
