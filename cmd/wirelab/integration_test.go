package main

// Integration tests against the real Docker engine and the images `make images` built. They run
// in make test's integration stage (WIRELAB_INTEGRATION=1); a plain `go test ./...` skips them
// and make test's unit stage leaves them out (their names start with TestIntegration).

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/prereq"
)

func integration(t *testing.T) string {
	t.Helper()
	prereq.Integration(t, "the built images")
	if bin := os.Getenv("WIRELAB_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "wirelab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

func runID(t *testing.T, prefix string) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// docker runs a docker command and returns its trimmed output, failing the test on error.
func docker(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("docker", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// labelled lists containers, networks and volumes carrying the label selector.
func labelled(t *testing.T, selector string) []string {
	t.Helper()
	var all []string
	for _, args := range [][]string{
		{"ps", "-a", "--format", "container {{.Names}}"},
		{"network", "ls", "--format", "network {{.Name}}"},
		{"volume", "ls", "--format", "volume {{.Name}}"},
	} {
		out := docker(t, append(args, "--filter", "label="+selector)...)
		if out != "" {
			all = append(all, strings.Split(out, "\n")...)
		}
	}
	return all
}

func assertNothingLeft(t *testing.T, id string) {
	t.Helper()
	if left := labelled(t, "wirelab.run="+id); len(left) > 0 {
		t.Errorf("run %s left %v", id, left)
	}
}

func wirelab(t *testing.T, bin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, string(out)
}

func readResult(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestIntegrationSmokeTalksAndCleansUp(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-smoke"), t.TempDir()
	code, log := wirelab(t, bin, "smoke", "--run-id", id, "--out", out)
	if code != 0 {
		t.Fatalf("smoke exit %d:\n%s", code, log)
	}
	res := readResult(t, filepath.Join(out, "smoke", id, "result.json"))
	if res["result"] != "succeeded" || res["bytes_received"].(float64) < 4<<20 {
		t.Fatalf("result %v", res)
	}
	assertNothingLeft(t, id)
}

// The smoke check must be able to fail: an image without iperf3 cannot talk.
func TestIntegrationSmokeFailsWhenEndpointsCannotTalk(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-smokebad"), t.TempDir()
	code, log := wirelab(t, bin, "smoke", "--run-id", id, "--out", out, "--image", "wirelab/base:trixie")
	if code != 1 {
		t.Fatalf("smoke with a broken endpoint: exit %d, want 1:\n%s", code, log)
	}
	if res := readResult(t, filepath.Join(out, "smoke", id, "result.json")); res["result"] != "failed" || res["reason"] == "" {
		t.Fatalf("result %v", res)
	}
	assertNothingLeft(t, id)
}

func TestIntegrationInterruptRemovesEverything(t *testing.T) {
	bin := integration(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		id := runID(t, "it-int")
		cmd := exec.Command(bin, "smoke", "--run-id", id, "--out", t.TempDir(), "--hold", "5m")
		cmd.Dir = "../.."
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(90 * time.Second)
		for len(labelled(t, "wirelab.run="+id)) < 3 { // 2 containers + 1 network
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("run never came up:\n%s", log.String())
			}
			time.Sleep(200 * time.Millisecond)
		}
		_ = cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: run did not stop within 60s:\n%s", sig, log.String())
		}
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("%v: exit %d, want 130:\n%s", sig, code, log.String())
		}
		assertNothingLeft(t, id)
	}
}

func TestIntegrationCleanRemovesOnlyItsRun(t *testing.T) {
	bin := integration(t)
	a, b := runID(t, "it-clean-a"), runID(t, "it-clean-b")
	unlabelled := runID(t, "it-clean-unlabelled")
	docker(t, "network", "create", "--internal", "--label", "wirelab.run="+a, a)
	docker(t, "run", "-d", "--network", a, "--label", "wirelab.run="+a, "--name", a, "wirelab/base:trixie", "sleep", "300")
	docker(t, "run", "-d", "--network", "none", "--label", "wirelab.run="+b, "--name", b, "wirelab/base:trixie", "sleep", "300")
	docker(t, "run", "-d", "--network", "none", "--name", unlabelled, "wirelab/base:trixie", "sleep", "300")
	defer exec.Command("docker", "rm", "-f", b, unlabelled).Run()

	if code, log := wirelab(t, bin, "clean", "--run-id", a); code != 0 || !strings.Contains(log, "1 containers, 1 networks") {
		t.Fatalf("clean exit %d: %s", code, log)
	}
	assertNothingLeft(t, a)
	if len(labelled(t, "wirelab.run="+b)) != 1 {
		t.Error("clean --run-id removed another run's container")
	}
	if docker(t, "ps", "-aq", "--filter", "name=^"+unlabelled+"$") == "" {
		t.Error("clean removed an unlabelled container")
	}
	if code, _ := wirelab(t, bin, "clean", "--run-id", b); code != 0 {
		t.Fatal("clean b")
	}
	assertNothingLeft(t, b)
}
