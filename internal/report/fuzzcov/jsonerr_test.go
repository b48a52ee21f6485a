package fuzzcov

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadJSONNamesField(t *testing.T) {
	dir := t.TempDir()
	for doc, want := range map[string]string{
		`{"target":"t","timeseries":[{"t":1},{"t":2,"coverage":{"features":"many"}}]}`: "field timeseries[1].coverage.features: got a JSON string, want an integer",
		`{"crashes":{"raw":1,"list":[{"id":"a"},{"id":7}]}}`:                           "field crashes.list[1].id: got a JSON number, want a string",
		`{"sources":{}}`:    "field sources: got a JSON object, want a list",
		`[1]`:               "got a JSON array, want an object",
		`{"target": "t",,}`: "invalid JSON at byte 16",
	} {
		p := filepath.Join(dir, "stats.json")
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		var s stats
		err := readJSON(p, &s)
		if err == nil || !strings.HasPrefix(err.Error(), p+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", doc, err, want)
		}
	}
}
