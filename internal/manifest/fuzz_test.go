package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: any manifest is accepted or rejected with one line naming the file, never a panic.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("../../images/*/manifest.yml")
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("images/x/manifest.yml", "images/x", data)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "images/x/manifest.yml") || strings.Contains(msg, "\n") {
				t.Fatalf("error is not one line naming the file: %q", msg)
			}
		}
	})
}
