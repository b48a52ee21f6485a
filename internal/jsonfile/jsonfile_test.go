package jsonfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReadAndBadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "x.json")
	if err := Write(p, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	var got map[string]int
	if err := Read(p, &got); err != nil || got["a"] != 1 {
		t.Fatalf("%v %v", got, err)
	}
	if err := os.WriteFile(p, []byte("{nope"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Read(p, &got); err == nil || !strings.HasPrefix(err.Error(), p+": ") {
		t.Errorf("malformed file: %v", err)
	}
}
