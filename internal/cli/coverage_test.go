package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/covgate"
)

func TestSelectGates(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "fuzz", "t"), 0o755)
	f, _ := covgate.Parse("gates.yml", []byte("targets:\n  t: {files: [x], lines: 1}\n  g: {kind: go, files: [x], lines: 1}\n  u: {files: [x], lines: 1}\n"))
	if _, err := selectGates(root, f, "t,g"); err != nil {
		t.Fatal(err)
	}
	if _, err := selectGates(root, f, "nope"); err == nil || exitCode(err) != ExitBadInput {
		t.Fatalf("unknown target: %v", err)
	}
	_, err := selectGates(root, f, "")
	if err == nil || exitCode(err) != ExitBadInput || !strings.Contains(err.Error(), "gates.yml: targets.u: no fuzz target folder") {
		t.Fatalf("missing fuzz folder: %v", err)
	}
}
