package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
		r, ctx, _, err = e.startRun(ctx, *opts, true)
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
			ts = covgate.MeasureGoTarget(ctx, r, e.root, g, covDir, *goBin)
		} else {
			ts = covgate.MeasureCTarget(ctx, r, e.root, g, covDir, *image)
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
