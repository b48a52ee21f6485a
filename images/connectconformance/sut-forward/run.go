package main

// `sut-forward run` drives connectconformance --mode server once per config and sums the results.
//
// connectconformance v1.0.7 has no time limit of its own for a call: a call the chain never
// completes (a full-duplex stream through a converter that cannot do full duplex, say) keeps
// its case outstanding, and once no result came for 20 s the runner stops reading its reference
// client while that client waits to write results, so the run never ends. The driver therefore
// runs it with -vv (a line as each case is sent and as its result arrives) and watches: when
// cases are outstanding and no result arrived for --stall, it ends the run (its whole process
// group: the runner and the sut-forward it started), records the outstanding cases as hung, and
// runs the config again skipping them, until a run completes. A hung case counts as failed.
// With all --parallel slots of the reference client taken, the last cases sent were not started
// (the client has read one and waits for a slot; the runner is writing the next): those are not
// counted as hung.
//
// --parallel defaults to 64 rather than the runner's 4 per CPU: fewer stalls to sit out when a
// chain holds calls, and still a load under which the direct chain and wirelab's converter showed
// no timing failures (at 4096, every case at once, deadline cases through the converter did).

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// outcome is one config's result.
type outcome struct {
	label       string
	total       int
	passed      int
	failed      []string // FAILED cases as connectconformance names them
	couldNotRun int
	hung        []string
	incomplete  string // why no run of the config completed, "" if one did
	seconds     float64
	attempts    int
	sent        []string // every case a completed run sent (-vv), in order
}

func (o *outcome) failures() int { return len(o.failed) + o.couldNotRun + len(o.hung) }

var (
	sendingRE  = regexp.MustCompile(`^Sending request for "(.*)"\.\.\.$`)
	receivedRE = regexp.MustCompile(`^Received response for "(.*)"\.\.\.$`)
	totalRE    = regexp.MustCompile(`^Total cases: (\d+)$`)
	passedRE   = regexp.MustCompile(`^(\d+) passed, (\d+) failed$`)
	noRunRE    = regexp.MustCompile(`^Another (\d+) could not be run`)
	failedRE   = regexp.MustCompile(`^FAILED: (.*?)(:| was expected to fail but did not)$`)
)

func runAll(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sut-forward run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var confs stringList
	fs.Var(&confs, "conf", "connectconformance config YAML (repeatable; one run each, named by its base name)")
	bin := fs.String("connectconformance", "connectconformance", "the connectconformance binary")
	logPath := fs.String("log", "", "file for connectconformance's whole output (default: none)")
	casesPath := fs.String("cases", "", "file for every case's outcome, a JSON line each: "+
		`{"config","case","result":"passed"|"failed"|"hung","message"} (default: none)`)
	stall := fs.Duration("stall", 12*time.Second, "end a run when cases are outstanding and no result came for this long (under the runner's own 20 s)")
	limit := fs.Duration("limit", 5*time.Minute, "time limit for each config, all its runs together")
	parallel := fs.Int("parallel", 64, "connectconformance -p: calls in flight at once")
	attempts := fs.Int("attempts", 8, "runs per config at most (each after the first skips the cases found hung)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	extra := fs.Args() // more connectconformance flags
	if len(confs) == 0 {
		fmt.Fprintln(stderr, "sut-forward run: no --conf")
		return 2
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "sut-forward run: %v\n", err)
		return 2
	}
	logw := io.Discard
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "sut-forward run: --log: %v\n", err)
			return 2
		}
		defer f.Close()
		logw = f
	}
	var passed, failed int
	var outcomes []*outcome
	for _, conf := range confs {
		o := runConfig(conf, *bin, self, extra, logw, *stall, *limit, *parallel, *attempts)
		outcomes = append(outcomes, o)
		report(stdout, o)
		passed += o.passed
		failed += o.failures()
		if o.incomplete != "" && o.failures() == 0 {
			failed++ // a config that never completed is not a pass
		}
	}
	if *casesPath != "" {
		if err := writeCases(*casesPath, outcomes); err != nil {
			fmt.Fprintf(stderr, "sut-forward run: --cases: %v\n", err)
			return 2
		}
	}
	fmt.Fprintf(stdout, "connectconformance: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

func report(w io.Writer, o *outcome) {
	status := fmt.Sprintf("%d cases, %d passed, %d failed", o.total+len(o.hung), o.passed, o.failures())
	if len(o.hung) > 0 {
		status += fmt.Sprintf(" (%d of them hung: no result within the stall time)", len(o.hung))
	}
	if o.couldNotRun > 0 {
		status += fmt.Sprintf(" (%d could not be run)", o.couldNotRun)
	}
	if o.attempts > 1 {
		status += fmt.Sprintf(", %d runs", o.attempts)
	}
	fmt.Fprintf(w, "connectconformance %s: %s in %.1fs\n", o.label, status, o.seconds)
	if o.incomplete != "" {
		fmt.Fprintf(w, "  INCOMPLETE: %s\n", o.incomplete)
	}
	for _, n := range o.failed {
		fmt.Fprintf(w, "  FAILED: %s\n", n)
	}
	for _, n := range o.hung {
		fmt.Fprintf(w, "  HUNG:   %s\n", n)
	}
}

func runConfig(conf, bin, self string, extra []string, logw io.Writer, stall, limit time.Duration, parallel, attempts int) *outcome {
	o := &outcome{label: strings.TrimSuffix(filepath.Base(conf), filepath.Ext(conf))}
	start := time.Now()
	deadline := start.Add(limit)
	defer func() { o.seconds = time.Since(start).Seconds() }()
	skipFile := ""
	defer func() {
		if skipFile != "" {
			os.Remove(skipFile)
		}
	}()
	for o.attempts < attempts {
		o.attempts++
		args := []string{"--mode", "server", "--conf", conf, "--vv", "-p", strconv.Itoa(parallel)}
		if len(o.hung) > 0 {
			f, err := os.CreateTemp("", "connectconformance-hung-*.txt")
			if err != nil {
				o.incomplete = err.Error()
				return o
			}
			skipFile = f.Name()
			_, _ = f.WriteString("# cases that hung in an earlier run\n" + strings.Join(o.hung, "\n") + "\n")
			f.Close()
			// One @file: v1.0.7 reads only the first @file of a flag and drops its other values.
			args = append(args, "--skip", "@"+skipFile)
		}
		args = append(append(args, extra...), "--", self)
		fmt.Fprintf(logw, "=== %s run %d: %s %s\n", o.label, o.attempts, bin, strings.Join(args, " "))
		r := runOnce(bin, args, logw, stall, deadline, parallel)
		fmt.Fprintf(logw, "=== %s run %d: %s\n", o.label, o.attempts, r.end)
		switch {
		case r.completed:
			o.total, o.passed, o.failed, o.couldNotRun, o.sent = r.total, r.passed, r.failed, r.couldNotRun, r.sent
			sort.Strings(o.hung)
			return o
		case len(r.outstanding) > 0 && r.stalled:
			o.hung = append(o.hung, r.outstanding...)
		default:
			o.incomplete = r.end
			sort.Strings(o.hung)
			return o
		}
	}
	o.incomplete = fmt.Sprintf("no run completed in %d attempts", attempts)
	sort.Strings(o.hung)
	return o
}

type runResult struct {
	completed   bool // the runner printed its summary and exited
	stalled     bool
	outstanding []string
	end         string // how the run ended, for the log
	total       int
	passed      int
	failed      []string
	couldNotRun int
	sent        []string // every case sent, in order
}

// runOnce runs connectconformance once, copying its output to logw and watching for a stall.
func runOnce(bin string, args []string, logw io.Writer, stall time.Duration, deadline time.Time, parallel int) (r runResult) {
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // to end the sut-forwards it starts too
	pr, pw, err := os.Pipe()
	if err != nil {
		r.end = err.Error()
		return r
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		r.end = err.Error()
		return r
	}
	pw.Close()

	var mu sync.Mutex
	pending := map[string]int{} // outstanding case -> send order
	order := 0
	lastProgress := time.Now()
	summary := false
	lines := make(chan struct{})
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(logw, line)
			mu.Lock()
			if m := sendingRE.FindStringSubmatch(line); m != nil {
				order++
				pending[m[1]] = order
				r.sent = append(r.sent, m[1])
			} else if m := receivedRE.FindStringSubmatch(line); m != nil {
				delete(pending, m[1])
				lastProgress = time.Now()
			} else if m := totalRE.FindStringSubmatch(line); m != nil {
				r.total, _ = strconv.Atoi(m[1])
				summary = true
			} else if m := passedRE.FindStringSubmatch(line); m != nil && summary {
				r.passed, _ = strconv.Atoi(m[1])
			} else if m := noRunRE.FindStringSubmatch(line); m != nil && summary {
				r.couldNotRun, _ = strconv.Atoi(m[1])
			} else if m := failedRE.FindStringSubmatch(line); m != nil {
				r.failed = append(r.failed, m[1])
			}
			mu.Unlock()
		}
	}()
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		// The rest of the output: the pipe ends when every holder of its write end exited (the
		// sut-forwards write their stderr there and exit on the runner's SIGTERM, or when it is
		// gone); one that lingers is ended.
		select {
		case <-lines:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			pr.Close()
			<-lines
		}
		exited <- err
	}()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			mu.Lock()
			defer mu.Unlock()
			r.completed = summary
			switch {
			case summary:
				r.end = "completed"
				if err != nil {
					r.end += " (" + err.Error() + ")"
				}
			case err != nil:
				r.end = "ended without a summary: " + err.Error()
			default:
				r.end = "ended without a summary"
			}
			return r
		case now := <-tick.C:
			mu.Lock()
			stalled := len(pending) > 0 && now.Sub(lastProgress) > stall
			late := now.After(deadline)
			if stalled || late {
				r.stalled = stalled && !late
				for name := range pending {
					r.outstanding = append(r.outstanding, name)
				}
				sort.Slice(r.outstanding, func(i, j int) bool { return pending[r.outstanding[i]] < pending[r.outstanding[j]] })
				// With every slot taken, the last cases sent wait for one (the reference client has
				// read one and waits; the runner is writing the next): not started, so not hung.
				if waiting := len(r.outstanding) - parallel; waiting > 0 {
					r.outstanding = r.outstanding[:parallel]
				}
			}
			mu.Unlock()
			if !stalled && !late {
				continue
			}
			stop(cmd, exited)
			if late {
				r.end = fmt.Sprintf("the config's time limit passed with %d cases outstanding", len(r.outstanding))
			} else {
				r.end = fmt.Sprintf("stalled: %d cases outstanding, no result for %s", len(r.outstanding), stall)
			}
			return r
		}
	}
}

// stop ends the runner's process group: SIGTERM (the sut-forwards exit on it), SIGKILL 5 s later.
func stop(cmd *exec.Cmd, exited <-chan error) {
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-exited:
		return
	case <-time.After(5 * time.Second):
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
	}
}
