package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/benchsuite"
)

// writeBenchRun makes out/bench/<id>/ as wirelab bench leaves it: its journal (a cell per
// protocol), bench.csv, result.json naming the charts, the SVG files, and latest pointing at it.
func writeBenchRun(t *testing.T, out, id string) {
	t.Helper()
	dir := filepath.Join(out, "bench", id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var rows []benchsuite.Row
	for _, proto := range []string{"h1", "h2", "h3"} {
		for _, size := range []benchsuite.Size{{Name: "1KB", Bytes: 1000}, {Name: "1MB", Bytes: 1_000_000}} {
			ms := float64(size.Bytes)/1000 + 100
			rows = append(rows, benchsuite.Row{Server: "nginx", Client: "curl", Protocol: proto, Profile: "lte", Size: size.Name, Bytes: size.Bytes, Reps: 2,
				Time: benchsuite.SpreadOf([]float64{ms, ms + 10}), TTFBMedian: 60, Seeds: []uint64{7, 8}})
		}
	}
	if err := benchsuite.WriteCSV(filepath.Join(dir, "bench.csv"), rows); err != nil {
		t.Fatal(err)
	}
	charts, err := benchsuite.WriteCharts(dir, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "result.json"), []byte(`{"complete": true, "planned": 3, "ran": 3, "charts": ["`+
		charts[0].File+`", "`+charts[1].File+`"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var journal strings.Builder
	for _, proto := range []string{"h1", "h2", "h3"} {
		journal.WriteString(`{"server":"nginx","client":"curl","case":"lte","abbr":"lte","axes":{"protocol":"` + proto + `"},"result":"succeeded","seconds":20,` +
			`"dir":"x","rerun":"wirelab bench --servers nginx --clients curl --protocols ` + proto + ` --profiles lte --seed 1"}` + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(journal.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(filepath.Join(out, "bench", "latest"))
	if err := os.Symlink(id, filepath.Join(out, "bench", "latest")); err != nil {
		t.Fatal(err)
	}
}

// The dashboard's Bench section (a registered suite like the others): in the nav, its matrix,
// the latest run's table and its charts inline.
func TestBenchSection(t *testing.T) {
	out := fixture(t)
	tshark, _ := fakeDocker(t, true)
	if strings.Contains(read(t, generate(t, out, tshark, TracesNone)), `id="bench"`) {
		t.Error("a bench section without out/bench")
	}
	writeBenchRun(t, out, "b1")
	page := read(t, generate(t, out, tshark, TracesNone))
	for _, want := range []string{`<a href="#bench">`, `<section id="bench">`, `Run <a href="../bench/b1/"><code>b1</code></a>: 3 cells: 3 passed`, `<table class="matrix" data-suite="bench" data-case="lte">`,
		`data-server="nginx@h3"`, "From bench.csv (6 rows) and the run&#39;s 2 charts",
		`<td>nginx</td><td>default</td><td>default</td><td>default</td><td>curl</td><td>h3</td><td>lte</td><td>1MB</td><td class="num">2</td><td class="num">1105</td>`,
		`<title>median download time vs object size on lte</title>`, `<title>h3 / h2 median download time on lte (below 1: h3 faster)</title>`} {
		if !strings.Contains(page, want) {
			t.Errorf("index lacks %q", want)
		}
	}
	// A broken bench.csv is said in its place; the rest of the report stands.
	if err := os.WriteFile(filepath.Join(out, "bench", "b1", "bench.csv"), []byte("nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page = read(t, generate(t, out, tshark, TracesNone))
	if !strings.Contains(page, `bench.csv:1: want the header`) || !strings.Contains(page, `<section id="quic">`) {
		t.Error("a broken bench.csv is not reported in its section")
	}
}
