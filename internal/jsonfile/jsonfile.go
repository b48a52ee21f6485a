// Package jsonfile writes JSON files atomically, so a reader (or an interrupted run) never sees
// half a file.
package jsonfile

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Write writes v as indented JSON to path via a temporary file and a rename.
func Write(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
