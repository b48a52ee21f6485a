package covgate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A gcovr 7.2 tracefile in miniature: one file with an encoder function and a decoder function,
// one file without a decoder function.
const trace = `{"gcovr/format_version": "0.6", "files": [
 {"file": "lib/qpack.c",
  "functions": [{"name": "qpack_decoder_read", "lineno": 20, "execution_count": 3},
                {"name": "qpack_encoder_write", "lineno": 10, "execution_count": 0}],
  "lines": [{"line_number": 11, "count": 0, "branches": []},
            {"line_number": 12, "count": 0, "branches": [{"count": 0}, {"count": 0}]},
            {"line_number": 21, "count": 3, "branches": [{"count": 3}, {"count": 0}]},
            {"line_number": 22, "count": 3, "branches": []},
            {"line_number": 23, "count": 0, "branches": []}]},
 {"file": "lib/other.c",
  "functions": [{"name": "encode_only", "lineno": 1, "execution_count": 0}],
  "lines": [{"line_number": 2, "count": 0, "branches": []}]}]}`

func TestSelectFunctions(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.json"), filepath.Join(dir, "out.json")
	os.WriteFile(in, []byte(trace), 0o644)
	kept, err := SelectFunctions(in, out, []string{`qpack_decoder_.*`})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(kept, ",") != "lib/qpack.c:qpack_decoder_read" {
		t.Fatalf("kept %v", kept)
	}
	var doc struct {
		Version string `json:"gcovr/format_version"`
		Files   []struct {
			File      string
			Functions []struct{ Name string }
			Lines     []struct {
				LineNumber int `json:"line_number"`
			}
		}
	}
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != "0.6" || len(doc.Files) != 1 || doc.Files[0].File != "lib/qpack.c" || len(doc.Files[0].Functions) != 1 {
		t.Fatalf("%s", data)
	}
	var lines []int
	for _, l := range doc.Files[0].Lines {
		lines = append(lines, l.LineNumber)
	}
	if len(lines) != 3 || lines[0] != 21 || lines[2] != 23 {
		t.Fatalf("the decoder's lines are 21-23, got %v", lines)
	}
	// A pattern is a whole-name match: "decoder" alone selects nothing.
	if kept, err := SelectFunctions(in, out, []string{`decoder`}); err != nil || len(kept) != 0 {
		t.Fatalf("partial match kept %v %v", kept, err)
	}
}

func TestSelectFunctionsBadTrace(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	os.WriteFile(in, []byte(`{"files": [{"file": "a.c", "functions": [{"name": "f"}], "lines": []}]}`), 0o644)
	if _, err := SelectFunctions(in, filepath.Join(dir, "o.json"), []string{"f"}); err == nil || !strings.Contains(err.Error(), "lineno") {
		t.Fatalf("got %v", err)
	}
}
