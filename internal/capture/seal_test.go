package capture

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writePcap writes a classic little-endian pcap with one record per payload.
func writePcap(t *testing.T, path string, payloads ...[]byte) FileSeal {
	t.Helper()
	hdr := make([]byte, 24)
	binary.LittleEndian.PutUint32(hdr, 0xa1b23c4d)
	data := hdr
	for _, p := range payloads {
		rec := make([]byte, 16)
		binary.LittleEndian.PutUint32(rec[8:], uint32(len(p)))
		binary.LittleEndian.PutUint32(rec[12:], uint32(len(p)))
		data = append(append(data, rec...), p...)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return FileSeal{Records: int64(len(payloads)), Bytes: int64(len(data))}
}

func sealedDir(t *testing.T) string {
	dir := t.TempDir()
	left := writePcap(t, filepath.Join(dir, "left.pcap"), []byte("a"), []byte("bb"))
	right := writePcap(t, filepath.Join(dir, "right.pcap"), []byte("ccc"))
	if err := Write(dir, map[string]FileSeal{"left.pcap": left, "right.pcap": right}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestSealedTracesVerify(t *testing.T) {
	dir := sealedDir(t)
	if err := Verify(dir); err != nil {
		t.Fatal(err)
	}
	if err := Verify(dir, "right.pcap"); err != nil {
		t.Fatal(err)
	}
}

// A trace the sim is still writing (no seal yet) is not evidence.
func TestUnsealedTraceIsRefused(t *testing.T) {
	dir := t.TempDir()
	writePcap(t, filepath.Join(dir, "right.pcap"), []byte("x"))
	err := Verify(dir, "right.pcap")
	if !errors.Is(err, ErrUnsealed) || !strings.Contains(err.Error(), SealFile) {
		t.Fatalf("got %v, want ErrUnsealed naming %s", err, SealFile)
	}
}

// Packets the sim had not written yet when a check would have read the file: the seal counts
// them, the file lacks them.
func TestTraceMissingItsLastPacketsIsRefused(t *testing.T) {
	dir := sealedDir(t)
	writePcap(t, filepath.Join(dir, "left.pcap"), []byte("a")) // the last record is missing
	err := Verify(dir, "left.pcap")
	if err == nil || !strings.Contains(err.Error(), "1 records") || !strings.Contains(err.Error(), "left.pcap") {
		t.Fatalf("got %v", err)
	}
}

func TestCutRecordIsRefused(t *testing.T) {
	dir := sealedDir(t)
	path := filepath.Join(dir, "left.pcap")
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, data[:len(data)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Verify(dir, "left.pcap"); err == nil || !strings.Contains(err.Error(), "record 2") {
		t.Fatalf("got %v", err)
	}
}

func TestSealWithoutTheFileOrEntryIsRefused(t *testing.T) {
	dir := sealedDir(t)
	if err := Verify(dir, "other.pcap"); err == nil || !strings.Contains(err.Error(), "no entry for other.pcap") {
		t.Fatalf("got %v", err)
	}
	os.Remove(filepath.Join(dir, "right.pcap"))
	if err := Verify(dir, "right.pcap"); err == nil {
		t.Fatal("a sealed but deleted trace verified")
	}
}

func TestIncompleteOrCorruptSealIsRefused(t *testing.T) {
	dir := sealedDir(t)
	os.WriteFile(filepath.Join(dir, SealFile), []byte(`{"complete": false, "files": {}}`), 0o644)
	if err := Verify(dir); !errors.Is(err, ErrUnsealed) {
		t.Fatalf("got %v", err)
	}
	os.WriteFile(filepath.Join(dir, SealFile), []byte(`{"complete": tr`), 0o644)
	if err := Verify(dir); err == nil || !strings.Contains(err.Error(), SealFile) {
		t.Fatalf("got %v", err)
	}
}

func TestCountRejectsNonPcap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.pcap")
	os.WriteFile(path, []byte(strings.Repeat("z", 40)), 0o644)
	if _, err := Count(path); err == nil || !strings.Contains(err.Error(), "not a pcap") {
		t.Fatalf("got %v", err)
	}
}
