package cli

import (
	"strings"

	"github.com/wirelab/wirelab/internal/jsonfile"
)

// writeJSON writes v atomically (temp file + rename) so readers never see half a result.
func writeJSON(path string, v any) error { return jsonfile.Write(path, v) }

// lastLines returns the last n non-empty lines of out, joined into one line.
func lastLines(out []byte, n int) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			keep = append(keep, l)
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return strings.Join(keep, " | ")
}
