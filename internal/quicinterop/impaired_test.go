package quicinterop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An impairment case is judged only when the sim's final stats show the impairment: none, a
// live (unsealed) file or no file at all fails it.
func TestImpairmentHappened(t *testing.T) {
	cell := func(stats string) string {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "sim"), 0o755); err != nil {
			t.Fatal(err)
		}
		if stats != "" {
			if err := os.WriteFile(filepath.Join(dir, "sim", "stats.json"), []byte(stats), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	lossy := `{"final": true, "rebinds": 0, "to_server": {"packets_in": 100, "dropped": {"loss": 3}}, "to_client": {"packets_in": 90}}`
	clean := `{"final": true, "to_server": {"packets_in": 100}, "to_client": {"packets_in": 90}}`
	live := `{"final": false, "to_server": {"packets_in": 100, "dropped": {"loss": 3}}}`
	if err := impairmentHappened(cell(lossy), "loss"); err != nil {
		t.Errorf("3 losses: %v", err)
	}
	for name, tc := range map[string]struct{ stats, impaired, want string }{
		"no loss":        {clean, "loss", "the sim's final stats show none"},
		"no corruption":  {lossy, "corruption", "show none"},
		"unsealed stats": {live, "loss", "not final"},
		"no stats":       {"", "loss", "stats.json"},
	} {
		if err := impairmentHappened(cell(tc.stats), tc.impaired); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	if err := impairmentHappened(cell(""), ""); err != nil {
		t.Errorf("a case without impairment reads nothing: %v", err)
	}
}
