package covgate

import (
	"bytes"
	"encoding/xml"
	"os"
	"strings"
	"testing"
	"time"
)

// testdata/mod/cover.out is `go test -coverprofile` of testdata/mod (calc_test.go calls Abs(3)
// and Method, never Never).
func loadCalc(t *testing.T) []FileCoverage {
	t.Helper()
	f, err := os.Open("testdata/mod/cover.out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := ParseProfile(f, "example.com/mod")
	if err != nil {
		t.Fatal(err)
	}
	g := &Gate{Target: "go", Kind: KindGo, Files: []string{`calc/.*\.go`}}
	files, err := Analyze(p, g, "testdata/mod")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestAnalyzeGoProfile(t *testing.T) {
	files := loadCalc(t)
	if len(files) != 1 || files[0].Path != "calc/calc.go" {
		t.Fatalf("files %+v", files)
	}
	m := Totals(files)
	// Lines 4,5,8,19,20,21 ran; 6,7 (x < 0) and 12-14 (Never) did not.
	if m["lines"] != (Counts{6, 11}) {
		t.Errorf("lines %+v", m["lines"])
	}
	// Abs and (*T).Method ran, Never did not; Empty has no statement and is not counted.
	if m["functions"] != (Counts{2, 3}) {
		t.Errorf("functions %+v", m["functions"])
	}
	var names []string
	for _, f := range files[0].Functions {
		names = append(names, f.Name)
	}
	if strings.Join(names, " ") != "Abs Never (*T).Method" {
		t.Errorf("functions %v", names)
	}
	if files[0].Lines[6] != 0 || files[0].Lines[5] != 1 {
		t.Errorf("line 5 shares a covered and an uncovered block: want the covered count, got %v", files[0].Lines)
	}
}

func TestCobertura(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCobertura(&buf, loadCalc(t), "/src", time.Unix(1700000000, 0)); err != nil {
		t.Fatal(err)
	}
	var rep coberturaReport
	if err := xml.Unmarshal(buf.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if rep.LinesCovered != 6 || rep.LinesValid != 11 || rep.LineRate != "0.5455" || rep.Sources[0] != "/src" {
		t.Fatalf("totals %+v", rep)
	}
	cls := rep.Packages[0].Classes[0]
	if rep.Packages[0].Name != "calc" || cls.Filename != "calc/calc.go" || len(cls.Lines) != 11 || len(cls.Methods) != 3 {
		t.Fatalf("class %+v", cls)
	}
	if m := cls.Methods[1]; m.Name != "Never" || m.LineRate != "0.0000" {
		t.Fatalf("method %+v", m)
	}
	if !strings.Contains(buf.String(), "coverage-04.dtd") {
		t.Fatal("no DOCTYPE")
	}
}

func TestParseProfileBad(t *testing.T) {
	for _, in := range []string{
		"calc.go:1.1,2.2 1 1\n",                           // no mode line
		"mode: set\nexample.com/mod/a.go:1.1,2 1 1\n",     // bad position
		"mode: set\nexample.com/mod/a.go:1.1,2.2 x 1\n",   // bad count
		"mode: set\nexample.com/mod/a.go 1.1,2.2 1 1 1\n", // no colon
	} {
		if _, err := ParseProfile(strings.NewReader(in), "example.com/mod"); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
	// Blocks reported by two test binaries (-coverpkg) merge, and files outside the module drop.
	p, err := ParseProfile(strings.NewReader("mode: count\nexample.com/mod/a.go:1.1,2.2 1 0\nexample.com/mod/a.go:1.1,2.2 1 3\nother.org/b.go:1.1,2.2 1 1\n"), "example.com/mod")
	if err != nil || len(p.Files) != 1 || len(p.Files["a.go"]) != 1 || p.Files["a.go"][0].Count != 3 {
		t.Fatalf("%+v %v", p, err)
	}
}
