package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/covgate"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/run"
)

// runCoverage is `wirelab coverage` (make coverage): measures every target of the gates file —
// C fuzz targets by replaying their stored corpus in a coverage build inside the fuzz image and
// judging them with gcovr's --fail-under-*, wirelab's own Go code with go test -coverprofile —
// writes out/coverage/<target>/ and out/coverage/summary.json, and fails on any broken gate.
func runCoverage(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "coverage", "")
	opts := fs.runFlags("coverage")
	gatesPath := fs.String("gates", filepath.Join(e.root, "coverage", "gates.yml"), "gates `file`: per target the file set and thresholds")
	only := fs.String("targets", "", "comma-separated `targets` of the gates file (default: all)")
	ratchet := fs.Bool("ratchet", false, "after measuring, raise the thresholds in the gates file to the measured values rounded down to 0.5% (never lowers)")
	image := fs.String("image", "", "fuzz `image` for the C targets (default: images/fuzz/manifest.yml's)")
	goBin := fs.String("go", "go", "the `go` command for wirelab's own coverage")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if err := checkRunFlags(opts, time.Now()); err != nil {
		return err
	}
	gates, err := covgate.Load(*gatesPath)
	if err != nil {
		return badInputf("%v", err)
	}
	selected, err := selectGates(e.root, gates, *only)
	if err != nil {
		return err
	}
	needImage := false
	for _, g := range selected {
		needImage = needImage || g.Kind == covgate.KindC
	}
	if needImage && *image == "" {
		if *image, err = fuzzImage(e.root); err != nil {
			return err
		}
	}

	var r *run.Run
	if needImage {
		r, ctx, _, err = e.startRun(ctx, *opts)
	} else {
		r, ctx, err = run.Start(ctx, *opts, e.docker)
	}
	if err != nil {
		return err
	}
	covDir := filepath.Join(r.Out, "coverage")
	sum := covgate.Summary{RunID: r.ID, Gates: *gatesPath, Passed: true, Targets: map[string]*covgate.TargetSummary{}}
	for _, g := range selected {
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(e.stdout, "coverage: %s (%s) ...\n", g.Target, g.Kind)
		start := time.Now()
		var ts *covgate.TargetSummary
		if g.Kind == covgate.KindGo {
			ts = measureGoTarget(ctx, e, r, g, covDir, *goBin)
		} else {
			ts = measureCTarget(ctx, e, r, g, covDir, *image)
		}
		sum.Targets[g.Target] = ts
		sum.Passed = sum.Passed && len(ts.Broken) == 0 && ts.Error == ""
		fmt.Fprintf(e.stdout, "coverage: %s done in %.0fs\n", g.Target, time.Since(start).Seconds())
	}
	interrupted := r.Interrupted() != nil
	if interrupted {
		sum.Passed = false
	}
	writeErr := writeJSON(filepath.Join(covDir, "summary.json"), sum)
	if writeErr == nil {
		writeErr = writeJSON(filepath.Join(r.Dir, "summary.json"), sum)
	}
	if err := r.Finish(); err != nil {
		return err
	}
	if interrupted {
		return errInterrupted
	}
	if writeErr != nil {
		return writeErr
	}
	printCoverage(e.stdout, selected, sum)
	if *ratchet {
		if err := ratchetGates(e.stdout, *gatesPath, sum); err != nil {
			return err
		}
	}
	var broken []string
	for _, g := range selected {
		ts := sum.Targets[g.Target]
		if ts.Error != "" {
			broken = append(broken, fmt.Sprintf("coverage gate FAILED: %s: %s", g.Target, ts.Error))
		}
		for _, b := range ts.Broken {
			broken = append(broken, b.String())
		}
	}
	if len(broken) > 0 {
		fmt.Fprintln(e.stderr, strings.Join(broken, "\n"))
		return errQuiet
	}
	fmt.Fprintf(e.stdout, "coverage: every gate holds (%s)\n", filepath.Join(covDir, "summary.json"))
	return nil
}

// selectGates returns the gates --targets names (all when empty); C targets need fuzz/<target>/.
func selectGates(root string, gates *covgate.File, only string) ([]*covgate.Gate, error) {
	var out []*covgate.Gate
	if only == "" {
		out = gates.Gates
	} else {
		for _, name := range strings.Split(only, ",") {
			g := gates.Gate(strings.TrimSpace(name))
			if g == nil {
				return nil, badInputf("--targets: %q is not a target of %s", name, gates.Path)
			}
			out = append(out, g)
		}
	}
	for _, g := range out {
		if g.Kind == covgate.KindC && !isDir(filepath.Join(root, "fuzz", g.Target)) {
			return nil, badInputf("%s: targets.%s: no fuzz target folder fuzz/%s/", gates.Path, g.Target, g.Target)
		}
	}
	return out, nil
}

// fuzzImage is the image images/fuzz/manifest.yml names; it must be built already.
func fuzzImage(root string) (string, error) {
	dir := filepath.Join(root, "images", "fuzz")
	data, err := os.ReadFile(filepath.Join(dir, "manifest.yml"))
	if err != nil {
		return "", badInputf("images/fuzz/manifest.yml: %v (the C targets are measured in the fuzz image)", err)
	}
	m, err := manifest.Parse(filepath.Join(dir, "manifest.yml"), dir, data)
	if err != nil {
		return "", err
	}
	return m.Ref(), nil
}

// measureGoTarget measures wirelab's own Go code on the host.
func measureGoTarget(ctx context.Context, e *env, r *run.Run, g *covgate.Gate, covDir, goBin string) *covgate.TargetSummary {
	dir := filepath.Join(covDir, g.Target)
	ts := &covgate.TargetSummary{Kind: g.Kind, Reports: map[string]string{
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
	rep, err := covgate.MeasureGo(ctx, goBin, e.root, g, dir, log)
	if err != nil {
		ts.Error = fmt.Sprintf("%v (log: %s)", err, log.Name())
		return ts
	}
	ts.Files, ts.Gate, ts.Whole = rep.Files, covgate.MetricTable(rep.Gate, g), covgate.MetricTable(rep.Whole, nil)
	ts.Broken = covgate.Judge(g, rep.Gate)
	if rep.TestErr != nil {
		ts.Error = fmt.Sprintf("%v (log: %s)", rep.TestErr, log.Name())
	}
	return ts
}

// measureCTarget builds one fuzz target for coverage in the fuzz image, replays its corpus and
// has gcovr write the reports and judge the gate (coverage/measure.sh does the work inside).
func measureCTarget(ctx context.Context, e *env, r *run.Run, g *covgate.Gate, covDir, image string) *covgate.TargetSummary {
	dir := filepath.Join(covDir, g.Target)
	ts := &covgate.TargetSummary{Kind: g.Kind, Functions: g.OnlyFunctions, Reports: map[string]string{
		"html": g.Target + "/index.html", "cobertura": g.Target + "/cobertura.xml",
		"text": g.Target + "/summary.txt", "json_summary": g.Target + "/summary.json",
		"gate_text": g.Target + "/gate.txt", "gate_json_summary": g.Target + "/gate-summary.json",
		"gate_html": g.Target + "/gate/index.html",
	}}
	_ = os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		ts.Error = err.Error()
		return ts
	}
	log, err := os.Create(filepath.Join(r.Dir, g.Target+".log"))
	if err != nil {
		ts.Error = err.Error()
		return ts
	}
	defer log.Close()
	name := "wirelab-coverage-" + r.ID + "-" + g.Target
	measure := append([]string{"run", "--rm", "--name", name}, r.Labels()...)
	// covDir/.build keeps fuzz/build.sh's coverage objects between runs (a library is rebuilt only
	// when its sources or flags change).
	if err := os.MkdirAll(filepath.Join(covDir, ".build"), 0o755); err != nil {
		ts.Error = err.Error()
		return ts
	}
	measure = append(measure, "-v", e.root+":/work:ro", "-v", dir+":/report", "-v", filepath.Join(covDir, ".build")+":/build",
		"-w", "/work", image,
		"nice", "bash", "coverage/measure.sh", g.Target, "/report")
	if err := dockerLogged(ctx, r, log, measure); err != nil {
		ts.Error = fmt.Sprintf("coverage/measure.sh failed (%v): %s (log: %s)", exitText(err), lastLogLine(log.Name()), log.Name())
		return ts
	}
	// The gate: the file set (and, for a decoder sharing a file with its encoder, the chosen
	// functions) judged by gcovr itself from the full tracefile.
	trace := "coverage.json"
	if len(g.OnlyFunctions) > 0 {
		trace = "gate-trace.json"
		kept, err := covgate.SelectFunctions(filepath.Join(dir, "coverage.json"), filepath.Join(dir, trace), g.OnlyFunctions)
		if err != nil {
			ts.Error = err.Error()
			return ts
		}
		fmt.Fprintf(log, "only_functions kept %d functions: %s\n", len(kept), strings.Join(kept, " "))
	}
	gate := append([]string{"run", "--rm", "--name", name + "-gate"}, r.Labels()...)
	gate = append(gate, "-v", dir+":/report", "-w", "/src", image,
		"gcovr", "--add-tracefile", "/report/"+trace, "--root", "/src",
		"--json-summary", "/report/gate-summary.json", "--json-summary-pretty", "--txt", "/report/gate.txt",
		"--html-details", "/report/gate/index.html", "--html-title", "wirelab coverage gate: "+g.Target)
	for _, f := range g.Files {
		gate = append(gate, "--filter", f)
	}
	gate = append(gate, covgate.GcovrArgs(g)...)
	_ = os.MkdirAll(filepath.Join(dir, "gate"), 0o755)
	status := 0
	if err := dockerLogged(ctx, r, log, gate); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() > 31 { // docker's own 125-127, or killed
			ts.Error = fmt.Sprintf("gcovr gate run failed (%v): %s (log: %s)", exitText(err), lastLogLine(log.Name()), log.Name())
			return ts
		}
		status = ee.ExitCode()
	}
	if err := os.WriteFile(filepath.Join(dir, "gate.exit"), []byte(strconv.Itoa(status)+"\n"), 0o644); err != nil {
		ts.Error = err.Error()
		return ts
	}
	return judgeC(g, dir, ts)
}

// dockerLogged runs docker with args, its command line and output into log.
func dockerLogged(ctx context.Context, r *run.Run, log io.Writer, args []string) error {
	fmt.Fprintf(log, "$ docker %s\n", strings.Join(args, " "))
	cmd := r.Docker.Cmd(ctx, args...)
	cmd.Stdout, cmd.Stderr = log, log
	return cmd.Run()
}

// judgeC reads gcovr's summaries and the gate run's exit status. gcovr's
// status decides which metrics failed; the summary gives the measured numbers for the line.
func judgeC(g *covgate.Gate, dir string, ts *covgate.TargetSummary) *covgate.TargetSummary {
	whole, err := covgate.ReadGcovrSummary(filepath.Join(dir, "summary.json"))
	if err != nil {
		ts.Error = err.Error()
		return ts
	}
	gate, err := covgate.ReadGcovrSummary(filepath.Join(dir, "gate-summary.json"))
	if err != nil {
		ts.Error = err.Error()
		return ts
	}
	raw, err := os.ReadFile(filepath.Join(dir, "gate.exit"))
	status, convErr := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil || convErr != nil {
		ts.Error = fmt.Sprintf("%s: no gcovr exit status", filepath.Join(dir, "gate.exit"))
		return ts
	}
	if n, err := os.ReadFile(filepath.Join(dir, "corpus-files")); err == nil {
		ts.CorpusFiles, _ = strconv.Atoi(strings.TrimSpace(string(n)))
	}
	for _, f := range gate.Files {
		ts.Files = append(ts.Files, f.Filename)
	}
	measured := gate.Measured()
	ts.Gate, ts.Whole = covgate.MetricTable(measured, g), covgate.MetricTable(whole.Measured(), nil)
	failedMetrics, err := covgate.GcovrFailed(status)
	if err != nil {
		ts.Error = err.Error()
		return ts
	}
	mine := covgate.Judge(g, measured)
	if len(mine) == 1 && mine[0].Metric == "files" {
		ts.Broken = mine
		return ts
	}
	for _, m := range failedMetrics {
		ts.Broken = append(ts.Broken, covgate.Broken{Target: g.Target, Metric: m,
			Measured: measured[m].Percent(), Threshold: *g.Thresholds[m]})
	}
	if len(mine) != len(ts.Broken) {
		ts.Error = fmt.Sprintf("gcovr (exit %d) and the summary disagree: %v", status, mine)
	}
	return ts
}

func printCoverage(w io.Writer, gates []*covgate.Gate, sum covgate.Summary) {
	fmt.Fprintf(w, "\n%-24s %-22s %-22s %-22s %s\n", "target", "lines", "branches", "functions", "gate")
	for _, g := range gates {
		ts := sum.Targets[g.Target]
		if ts == nil {
			continue
		}
		cells := make([]string, 0, 3)
		for _, metric := range covgate.Metrics {
			m, ok := ts.Gate[metric]
			switch {
			case !ok || (metric == "branches" && g.Kind == covgate.KindGo):
				cells = append(cells, "-")
			case m.Threshold != nil:
				cells = append(cells, fmt.Sprintf("%5.1f%% (>= %g)", m.Percent, *m.Threshold))
			default:
				cells = append(cells, fmt.Sprintf("%5.1f%%", m.Percent))
			}
		}
		verdict := "ok"
		if ts.Error != "" {
			verdict = "ERROR"
		} else if len(ts.Broken) > 0 {
			verdict = "FAILED"
		}
		fmt.Fprintf(w, "%-24s %-22s %-22s %-22s %s\n", g.Target, cells[0], cells[1], cells[2], verdict)
	}
	fmt.Fprintln(w)
}

func ratchetGates(w io.Writer, path string, sum covgate.Summary) error {
	measured := map[string]covgate.Measured{}
	for name, ts := range sum.Targets {
		if ts.Error != "" {
			continue
		}
		m := covgate.Measured{}
		for metric, v := range ts.Gate {
			m[metric] = v.Counts
		}
		measured[name] = m
	}
	changes, err := covgate.Ratchet(path, measured)
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		fmt.Fprintf(w, "coverage-ratchet: %s unchanged (no measurement above a threshold by 0.5%% or more)\n", path)
	}
	for _, c := range changes {
		fmt.Fprintf(w, "coverage-ratchet: %s: %s\n", path, c)
	}
	return nil
}

func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return fmt.Sprintf("exit %d", ee.ExitCode())
	}
	return err.Error()
}

// lastLogLine is the last non-empty line of a log, the usual place of a script's reason.
func lastLogLine(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
