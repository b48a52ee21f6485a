package probe

import (
	"io"
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// busyEnv makes the test binary one of loadMachine's CPU-bound processes instead.
const busyEnv = "WIRELAB_PROBE_BUSY"

// loadMachine starts n CPU-bound processes (this test binary, see TestMain) until the test
// ends. Each exits when its stdin closes, so none outlives the test, even a killed one.
func loadMachine(t *testing.T, n int) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		c := exec.Command(self, "-test.run=^$")
		c.Env = append(os.Environ(), busyEnv+"=1")
		stdin, err := c.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stdin.Close()
			c.Wait()
		})
	}
}

// busyLoop computes on one CPU until stdin closes.
func busyLoop() {
	runtime.GOMAXPROCS(1)
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	for x := 0; ; x++ {
		spin = x
	}
}

var spin int
