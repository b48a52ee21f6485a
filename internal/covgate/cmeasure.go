package covgate

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

	"github.com/wirelab/wirelab/internal/run"
)

// MeasureCTarget builds one fuzz target for coverage in the fuzz image, replays its corpus and
// has gcovr write the reports and judge the gate (coverage/measure.sh does the work inside) into
// covDir/<target>/; root is the repository, mounted read-only. The log goes to the run's folder.
func MeasureCTarget(ctx context.Context, r *run.Run, root string, g *Gate, covDir, image string) *TargetSummary {
	dir := filepath.Join(covDir, g.Target)
	ts := &TargetSummary{Kind: g.Kind, Functions: g.OnlyFunctions, Reports: map[string]string{
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
	measure = append(measure, "-v", root+":/work:ro", "-v", dir+":/report", "-v", filepath.Join(covDir, ".build")+":/build",
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
		kept, err := SelectFunctions(filepath.Join(dir, "coverage.json"), filepath.Join(dir, trace), g.OnlyFunctions)
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
	gate = append(gate, GcovrArgs(g)...)
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
func judgeC(g *Gate, dir string, ts *TargetSummary) *TargetSummary {
	whole, err := ReadGcovrSummary(filepath.Join(dir, "summary.json"))
	if err != nil {
		ts.Error = err.Error()
		return ts
	}
	gate, err := ReadGcovrSummary(filepath.Join(dir, "gate-summary.json"))
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
	ts.Gate, ts.Whole = MetricTable(measured, g), MetricTable(whole.Measured(), nil)
	failedMetrics, err := GcovrFailed(status)
	if err != nil {
		ts.Error = err.Error()
		return ts
	}
	mine := Judge(g, measured)
	if len(mine) == 1 && mine[0].Metric == "files" {
		ts.Broken = mine
		return ts
	}
	for _, m := range failedMetrics {
		ts.Broken = append(ts.Broken, Broken{Target: g.Target, Metric: m,
			Measured: measured[m].Percent(), Threshold: *g.Thresholds[m]})
	}
	if len(mine) != len(ts.Broken) {
		ts.Error = fmt.Sprintf("gcovr (exit %d) and the summary disagree: %v", status, mine)
	}
	return ts
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
