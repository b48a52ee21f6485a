// Package capture seals the sim's packet traces: the sim writes capture.json only after it has
// closed its pcaps, naming each file's record count and size. A check may read a trace only
// when the seal exists and matches it, so no verdict is computed from a trace the sim was still
// writing (a fast cell's last packets sit in the sim's buffer for up to a second), and a trace
// truncated or changed later is refused instead of giving another verdict.
package capture

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/wirelab/wirelab/internal/jsonfile"
)

// SealFile is the seal's name, in the same folder as the pcaps.
const SealFile = "capture.json"

// Seal is capture.json.
type Seal struct {
	Complete bool                `json:"complete"` // the sim closed every trace it wrote
	Files    map[string]FileSeal `json:"files"`
}

// FileSeal is what one closed pcap holds.
type FileSeal struct {
	Records int64 `json:"records"`
	Bytes   int64 `json:"bytes"`
}

// Write writes the seal for the pcaps in dir (atomically: a reader sees all of it or none).
func Write(dir string, files map[string]FileSeal) error {
	return jsonfile.Write(filepath.Join(dir, SealFile), Seal{Complete: true, Files: files})
}

// ErrUnsealed means the sim did not close its capture: it was still running, or it died.
var ErrUnsealed = errors.New("the sim did not seal its capture (still running, or died)")

// Verify checks that dir's seal exists and that each named pcap (every sealed one when none is
// named) has exactly the records and bytes the seal gives.
func Verify(dir string, names ...string) error {
	path := filepath.Join(dir, SealFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", path, ErrUnsealed)
	}
	if err != nil {
		return err
	}
	var s Seal
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if !s.Complete {
		return fmt.Errorf("%s: complete is false: %w", path, ErrUnsealed)
	}
	if len(names) == 0 {
		for n := range s.Files {
			names = append(names, n)
		}
		sort.Strings(names)
	}
	for _, n := range names {
		want, ok := s.Files[n]
		if !ok {
			return fmt.Errorf("%s: files: no entry for %s", path, n)
		}
		got, err := Count(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s: %d records / %d bytes, the seal says %d / %d (changed after the sim closed it)",
				filepath.Join(dir, n), got.Records, got.Bytes, want.Records, want.Bytes)
		}
	}
	return nil
}

// Count walks a classic pcap's records and returns its record count and size; a file that ends
// inside a record is an error naming the file.
func Count(path string) (FileSeal, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileSeal{}, err
	}
	defer f.Close()
	r, err := NewPcapReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return FileSeal{}, fmt.Errorf("%s: %v", path, err)
	}
	st := FileSeal{Bytes: 24}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			return st, fmt.Errorf("%s: %v", path, err)
		}
		st.Records++
		st.Bytes += 16 + int64(len(rec.Data))
	}
}
