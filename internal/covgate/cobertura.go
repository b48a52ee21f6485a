package covgate

import (
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"
)

// Cobertura XML (the coverage-04.dtd layout gcovr writes and CI coverage UIs read), for Go
// coverage. Go profiles carry no branch data: branch rates are 0 of 0 (rate 1).
type coberturaReport struct {
	XMLName         xml.Name     `xml:"coverage"`
	LineRate        string       `xml:"line-rate,attr"`
	BranchRate      string       `xml:"branch-rate,attr"`
	LinesCovered    int          `xml:"lines-covered,attr"`
	LinesValid      int          `xml:"lines-valid,attr"`
	BranchesCovered int          `xml:"branches-covered,attr"`
	BranchesValid   int          `xml:"branches-valid,attr"`
	Complexity      string       `xml:"complexity,attr"`
	Timestamp       int64        `xml:"timestamp,attr"`
	Version         string       `xml:"version,attr"`
	Sources         []string     `xml:"sources>source"`
	Packages        []cobPackage `xml:"packages>package"`
}

type cobPackage struct {
	Name       string     `xml:"name,attr"`
	LineRate   string     `xml:"line-rate,attr"`
	BranchRate string     `xml:"branch-rate,attr"`
	Complexity string     `xml:"complexity,attr"`
	Classes    []cobClass `xml:"classes>class"`
}

type cobClass struct {
	Name       string      `xml:"name,attr"`
	Filename   string      `xml:"filename,attr"`
	LineRate   string      `xml:"line-rate,attr"`
	BranchRate string      `xml:"branch-rate,attr"`
	Complexity string      `xml:"complexity,attr"`
	Methods    []cobMethod `xml:"methods>method"`
	Lines      []cobLine   `xml:"lines>line"`
}

type cobMethod struct {
	Name       string    `xml:"name,attr"`
	Signature  string    `xml:"signature,attr"`
	LineRate   string    `xml:"line-rate,attr"`
	BranchRate string    `xml:"branch-rate,attr"`
	Complexity string    `xml:"complexity,attr"`
	Lines      []cobLine `xml:"lines>line"`
}

type cobLine struct {
	Number int    `xml:"number,attr"`
	Hits   int    `xml:"hits,attr"`
	Branch string `xml:"branch,attr"`
}

func rate(c Counts) string {
	if c.Total == 0 {
		return "1"
	}
	return fmt.Sprintf("%.4f", float64(c.Covered)/float64(c.Total))
}

// WriteCobertura writes files' coverage as Cobertura XML; sourceRoot is the folder the file
// names are relative to.
func WriteCobertura(w io.Writer, files []FileCoverage, sourceRoot string, now time.Time) error {
	total := Totals(files)["lines"]
	rep := coberturaReport{
		LineRate: rate(total), BranchRate: "1", LinesCovered: total.Covered, LinesValid: total.Total,
		Complexity: "0", Timestamp: now.Unix(), Version: "wirelab-covgate", Sources: []string{sourceRoot},
	}
	byDir := map[string][]FileCoverage{}
	for _, f := range files {
		byDir[path.Dir(f.Path)] = append(byDir[path.Dir(f.Path)], f)
	}
	var dirs []string
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		pkg := cobPackage{Name: strings.ReplaceAll(d, "/", "."), BranchRate: "1", Complexity: "0"}
		pkg.LineRate = rate(Totals(byDir[d])["lines"])
		for _, f := range byDir[d] {
			cls := cobClass{Name: path.Base(f.Path), Filename: f.Path, BranchRate: "1", Complexity: "0"}
			cls.LineRate = rate(Totals([]FileCoverage{f})["lines"])
			for _, fn := range f.Functions {
				cls.Methods = append(cls.Methods, cobMethod{
					Name: fn.Name, Signature: "", LineRate: rate(fn.LineCount), BranchRate: "1", Complexity: "0",
					Lines: []cobLine{{Number: fn.Line, Hits: fn.Hits, Branch: "false"}},
				})
			}
			var nums []int
			for l := range f.Lines {
				nums = append(nums, l)
			}
			sort.Ints(nums)
			for _, l := range nums {
				cls.Lines = append(cls.Lines, cobLine{Number: l, Hits: f.Lines[l], Branch: "false"})
			}
			pkg.Classes = append(pkg.Classes, cls)
		}
		rep.Packages = append(rep.Packages, pkg)
	}
	if _, err := io.WriteString(w, xml.Header+`<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">`+"\n"); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
