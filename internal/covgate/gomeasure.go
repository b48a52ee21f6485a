package covgate

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/run"
)

// GoReport is what MeasureGo wrote and measured.
type GoReport struct {
	Gate  Measured // the gate's file set
	Whole Measured // every file in the profile
	Files []string // the gated files
	// TestErr is set when a test failed: the profile of what ran is still measured.
	TestErr error
}

// failedPackages lists the packages go test reported as FAIL.
func failedPackages(out string) string {
	var pkgs []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "FAIL" {
			pkgs = append(pkgs, f[1])
		}
	}
	if len(pkgs) == 0 {
		return "no package reported FAIL (build error?)"
	}
	return "FAIL " + strings.Join(pkgs, ", ")
}

// MeasureGo runs wirelab's unit tests with -coverprofile over ./... (never the integration
// tests: WIRELAB_INTEGRATION is removed from their environment) in root and writes into dir:
// go.cover (the profile), cobertura.xml and summary.txt for the gate's file set, and index.html
// (`go tool cover -html`). log receives go test's output. A failing test fails the measurement.
func MeasureGo(ctx context.Context, goBin, root string, g *Gate, dir string, log io.Writer) (*GoReport, error) {
	mod, err := ModulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	profile := filepath.Join(dir, "go.cover")
	cmd := exec.CommandContext(ctx, goBin, "test", "-coverprofile="+profile, "./...")
	var out bytes.Buffer
	cmd.Dir, cmd.Stdout, cmd.Stderr = root, io.MultiWriter(log, &out), io.MultiWriter(log, &out)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WIRELAB_INTEGRATION=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	// A failing test still leaves a profile: the numbers are reported, the target fails.
	var testErr error
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		testErr = fmt.Errorf("go test -coverprofile ./... failed (%v): %s", err, failedPackages(out.String()))
	}
	f, err := os.Open(profile)
	if err != nil {
		if testErr != nil {
			return nil, testErr
		}
		return nil, err
	}
	defer f.Close()
	p, err := ParseProfile(f, mod)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", profile, err)
	}
	files, err := Analyze(p, g, root)
	if err != nil {
		return nil, err
	}
	all, err := Analyze(p, &Gate{Files: []string{".*"}}, root)
	if err != nil {
		return nil, err
	}
	rep := &GoReport{Gate: Totals(files), Whole: Totals(all), TestErr: testErr}
	for _, fc := range files {
		rep.Files = append(rep.Files, fc.Path)
	}
	if err := writeFile(filepath.Join(dir, "cobertura.xml"), func(w io.Writer) error {
		return WriteCobertura(w, files, root, time.Now())
	}); err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(dir, "summary.txt"), func(w io.Writer) error {
		return WriteText(w, files)
	}); err != nil {
		return nil, err
	}
	html := exec.CommandContext(ctx, goBin, "tool", "cover", "-html="+profile, "-o", filepath.Join(dir, "index.html"))
	html.Dir, html.Stdout, html.Stderr = root, log, log
	if err := html.Run(); err != nil {
		return nil, fmt.Errorf("go tool cover -html: %v", err)
	}
	return rep, nil
}

// WriteText writes a per-file table like gcovr's text summary (lines and functions).
func WriteText(w io.Writer, files []FileCoverage) error {
	bw := bufio.NewWriter(w)
	rule := strings.Repeat("-", 86)
	fmt.Fprintf(bw, "%s\n%-50s %9s %7s %7s %10s\n%s\n", rule, "File", "Lines", "Exec", "Cover", "Functions", rule)
	sorted := append([]FileCoverage(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for _, f := range sorted {
		m := Totals([]FileCoverage{f})
		fmt.Fprintf(bw, "%-50s %9d %7d %6.1f%% %4d/%-5d\n", f.Path, m["lines"].Total, m["lines"].Covered,
			m["lines"].Percent(), m["functions"].Covered, m["functions"].Total)
	}
	m := Totals(files)
	fmt.Fprintf(bw, "%s\n%-50s %9d %7d %6.1f%% %4d/%-5d\n%s\n", rule, "TOTAL", m["lines"].Total, m["lines"].Covered,
		m["lines"].Percent(), m["functions"].Covered, m["functions"].Total, rule)
	return bw.Flush()
}

// ModulePath reads the module line of a go.mod file.
func ModulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}

func writeFile(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// MeasureGoTarget measures wirelab's own Go code on the host (MeasureGo) into covDir/<target>/
// and judges its gate; the log goes to the run's folder.
func MeasureGoTarget(ctx context.Context, r *run.Run, root string, g *Gate, covDir, goBin string) *TargetSummary {
	dir := filepath.Join(covDir, g.Target)
	ts := &TargetSummary{Kind: g.Kind, Reports: map[string]string{
		"html": g.Target + "/index.html", "cobertura": g.Target + "/cobertura.xml",
		"text": g.Target + "/summary.txt", "profile": g.Target + "/go.cover",
	}}
	_ = os.RemoveAll(dir)
	log, err := os.Create(filepath.Join(r.Dir, g.Target+".log"))
	if err != nil {
		ts.Error = err.Error()
		return ts
	}
	defer log.Close()
	rep, err := MeasureGo(ctx, goBin, root, g, dir, log)
	if err != nil {
		ts.Error = fmt.Sprintf("%v (log: %s)", err, log.Name())
		return ts
	}
	ts.Files, ts.Gate, ts.Whole = rep.Files, MetricTable(rep.Gate, g), MetricTable(rep.Whole, nil)
	ts.Broken = Judge(g, rep.Gate)
	if rep.TestErr != nil {
		ts.Error = fmt.Sprintf("%v (log: %s)", rep.TestErr, log.Name())
	}
	return ts
}
