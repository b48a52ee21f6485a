package main

// Faults in the middle of a real run: containers killed under running cells, the runner itself
// killed with SIGKILL, then `wirelab clean` and --resume; and a disk that fills up under out/.

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/prereq"
)

// faultArgs is a 20-cell matrix of short cases (two stacks both ways).
var faultArgs = []string{"quic", "-j", "2", "--seed", "5", "--clients", "quic-go,ngtcp2", "--servers", "quic-go,ngtcp2",
	"--tests", "handshake,transfer,retry,chacha20,http3"}

// journalLines parses every line of results.jsonl, failing the test on a line that is not a
// whole result (an interrupted write must not leave half a line).
func journalLines(t *testing.T, path string) []cellLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		t.Fatal(err)
	}
	if len(data) == 0 {
		return nil
	}
	if data[len(data)-1] != '\n' {
		t.Fatalf("%s ends inside a line", path)
	}
	return readJournal(t, path)
}

// startRun starts wirelab in the background with its output collected.
func startRun(t *testing.T, bin string, args []string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = "../.."
	log := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, log
}

// waitForCells waits until the journal holds n cells, killing the run and failing after limit.
func waitForCells(t *testing.T, cmd *exec.Cmd, log *bytes.Buffer, journal string, n int, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for len(journalLines(t, journal)) < n {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("%d cells did not finish in %s:\n%s", n, limit, log.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// chaos kills, in the run's cells as they come up, the sim of the 2nd cell and the server of
// the 4th (2 of 20 cells: 10 %), once each cell's client runs. A cell that ended before its kill
// passes the kill on to the next new cell, so the run still loses a sim and a server. Each kill
// made ("project/service") is sent on the returned channel, which closes after the second.
func chaos(id string, stop <-chan struct{}) <-chan string {
	kills := make(chan string, 2)
	go func() {
		defer close(kills)
		seen, pending := map[string]bool{}, []string{}
		for n := 0; len(pending) > 0 || n < 4; {
			select {
			case <-stop:
				return
			case <-time.After(300 * time.Millisecond):
			}
			out, _ := exec.Command("docker", "ps", "--filter", "label=wirelab.run="+id, "--format",
				`{{.Label "com.docker.compose.project"}} {{.Label "com.docker.compose.service"}}`).Output()
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				project, svc, ok := strings.Cut(l, " ")
				if !ok || svc != "client" || strings.Contains(project, "compliance") || seen[project] {
					continue
				}
				seen[project] = true
				switch n++; n {
				case 2:
					pending = append(pending, "sim")
				case 4:
					pending = append(pending, "server")
				}
				if len(pending) == 0 {
					continue
				}
				time.Sleep(300 * time.Millisecond) // the client is under way
				if exec.Command("docker", "kill", project+"-"+pending[0]+"-1").Run() == nil {
					kills <- project + "/" + pending[0]
					pending = pending[1:]
				}
			}
		}
	}()
	return kills
}

// namesWhatDied reports whether a cell's reason names a killed sim or server.
func namesWhatDied(c cellLine) bool {
	for _, s := range []string{"the sim died", "the sim had exited", "the sim did not stop cleanly (exited 137)",
		"the server exited 137", "the server had exited 137"} {
		if strings.Contains(c.Reason, s) {
			return true
		}
	}
	return false
}

func TestIntegrationFaultsKillsCleanResume(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-fault"), t.TempDir()
	journal := filepath.Join(out, "quic", id, "results.jsonl")
	args := append(append([]string{}, faultArgs...), "--run-id", id, "--out", out)

	cmd, log := startRun(t, bin, args)
	// a failure before the test's own clean must not leave the SIGKILLed run's containers behind
	t.Cleanup(func() {
		c := exec.Command(bin, "clean", "--run-id", id)
		c.Dir = "../.." // as wirelab() runs it
		_ = c.Run()
	})
	stop := make(chan struct{})
	kills := chaos(id, stop)
	// The runner dies once it journaled 8 cells and both killed cells (a killed cell it had not
	// journaled would run again on --resume and leave no trace of its kill).
	var killed []string
	deadline := time.Now().Add(8 * time.Minute)
	for {
		select {
		case k, ok := <-kills:
			if ok {
				killed = append(killed, k)
			} else {
				kills = nil
			}
			continue
		default:
		}
		lines, named := journalLines(t, journal), 0
		for _, c := range lines {
			if c.Result == "failed" && namesWhatDied(c) {
				named++
			}
		}
		if len(lines) >= 8 && len(killed) == 2 && named == 2 {
			break
		}
		if time.Now().After(deadline) || len(lines) == 20 {
			cmd.Process.Kill()
			t.Fatalf("after %d cells, %d naming what died, kills %v:\n%s", len(lines), named, killed, log.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
	close(stop)
	_ = cmd.Process.Kill() // SIGKILL: no cleanup of its own
	_ = cmd.Wait()
	before := journalLines(t, journal)
	t.Logf("runner killed after %d cells; containers killed: %v", len(before), killed)
	if len(killed) != 2 {
		t.Fatalf("chaos killed %v, want a sim and a server", killed)
	}
	if left := labelled(t, "wirelab.run="+id); len(left) == 0 {
		t.Log("nothing was running when the runner died (the test then proves less)")
	}
	if code, cl := wirelab(t, bin, "clean", "--run-id", id); code != 0 {
		t.Fatalf("clean: exit %d\n%s", code, cl)
	}
	assertNothingLeft(t, id)

	start := time.Now()
	code, resumed := wirelab(t, bin, append(args, "--resume")...)
	t.Logf("first run (SIGKILLed):\n%s", log.String())
	t.Logf("resume: exit %d in %s\n%s", code, time.Since(start).Round(time.Second), resumed)
	assertNothingLeft(t, id)
	after := journalLines(t, journal)
	for i, c := range before { // what the killed run finished is kept as it was
		if !reflect.DeepEqual(after[i], c) {
			t.Errorf("journal line %d changed: %+v -> %+v", i+1, c, after[i])
		}
	}
	cells := map[string]cellLine{}
	for _, c := range after {
		cells[c.Server+"_"+c.Client+"/"+c.Case] = c
	}
	if len(cells) != 20 {
		t.Fatalf("%d distinct cells after the resume, want 20", len(cells))
	}
	// The killed cells failed, each naming what died; every other cell passed.
	faulty := 0
	for key, c := range cells {
		switch {
		case c.Result == "failed" && namesWhatDied(c):
			faulty++
			t.Logf("%s: %.1fs: %s", key, c.Seconds, c.Reason)
			if c.Seconds >= 60 { // the cases' time limit: a dead peer must not hang the cell
				t.Errorf("%s took %.0fs, its limit is 60s", key, c.Seconds)
			}
		case c.Result != "succeeded":
			t.Errorf("%s: %s (%s)", key, c.Result, c.Reason)
		}
	}
	if faulty != len(killed) {
		t.Errorf("%d cells failed naming what died, want %d", faulty, len(killed))
	}
}

// A disk that fills up under out/ mid-run: the run stops with one clear line and exit 3, and the
// journal keeps every cell it had, each line whole; with room again --resume completes the run.
func TestIntegrationFaultsFullDisk(t *testing.T) {
	bin := integration(t)
	// The small disk is a 64 MB tmpfs mounted as the run's out/: mounting needs root (with
	// CAP_SYS_ADMIN). Under WIRELAB_INTEGRATION=1 a missing one fails the test (prereq).
	if os.Geteuid() != 0 {
		prereq.Missing(t, "root, to mount a 64 MB tmpfs as the run's out/", "CI runs .ci/run as root")
	}
	out := t.TempDir()
	if msg, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64m", "wirelab-fulldisk", out).CombinedOutput(); err != nil {
		prereq.Missing(t, fmt.Sprintf("a mountable tmpfs (mount: %v: %s)", err, strings.Join(strings.Fields(string(msg)), " ")), "CI runs .ci/run as root on the host, with CAP_SYS_ADMIN")
	}
	defer exec.Command("umount", "-l", out).Run()
	id := runID(t, "it-disk")
	journal := filepath.Join(out, "quic", id, "results.jsonl")
	args := []string{"quic", "-j", "1", "--seed", "5", "--clients", "quic-go", "--servers", "quic-go",
		"--tests", "handshake,retry,resumption,http3,chacha20", "--run-id", id, "--out", out}

	cmd, log := startRun(t, bin, args)
	waitForCells(t, cmd, log, journal, 2, 3*time.Minute)
	// Fill the disk: what the run writes next (www files, traces, the journal) finds no room.
	filler := filepath.Join(out, "filler")
	_ = exec.Command("dd", "if=/dev/zero", "of="+filler, "bs=1M", "count=80").Run()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("a full disk hung the run:\n%s", log.String())
	}
	code := cmd.ProcessState.ExitCode()
	last := lastLine(log.String())
	t.Logf("full disk: exit %d, last line %q", code, last)
	if code != 3 || !strings.Contains(last, "no space left on device") {
		t.Errorf("want exit 3 and a last line naming the full disk, got %d %q\n%s", code, last, log.String())
	}
	kept := journalLines(t, journal)
	if len(kept) < 2 {
		t.Errorf("journal lost cells: %d left", len(kept))
	}
	assertNothingLeft(t, id)

	os.Remove(filler)
	code, resumed := wirelab(t, bin, append(args, "--resume")...)
	if code != 0 {
		t.Fatalf("resume after freeing the disk: exit %d\n%s", code, resumed)
	}
	if n := len(journalLines(t, journal)); n < 5 {
		t.Errorf("after the resume %d journal lines, want >= 5", n)
	}
	assertNothingLeft(t, id)
}

func lastLine(s string) string {
	var last string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			last = l
		}
	}
	return last
}
