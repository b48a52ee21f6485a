package probe

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// pauseEnv makes the test binary stop its parent for pauseFor, as a busy machine does to a
// process it does not schedule.
const (
	pauseEnv = "WIRELAB_PROBE_PAUSE"
	pauseFor = 150 * time.Millisecond
)

func init() { children[pauseEnv] = pauseParent }

func pauseParent() {
	parent := os.Getppid()
	syscall.Kill(parent, syscall.SIGSTOP)
	defer syscall.Kill(parent, syscall.SIGCONT)
	time.Sleep(pauseFor) // the pause itself, not a synchronization
}

// TestMeterSeesAPause: while the whole process is stopped, the meter cannot wake; the wake
// after the pause is late by about the pause.
func TestMeterSeesAPause(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	m := startMeter(WakeupTick)
	start := time.Now()
	c := exec.Command(self, "-test.run=^$")
	c.Env = append(os.Environ(), pauseEnv+"=1")
	if out, err := c.CombinedOutput(); err != nil { // returns once the child has let us go on
		t.Fatalf("pausing child: %v: %s", err, out)
	}
	m.close()
	worst := percentile(m.lates(start, time.Now()), 100)
	t.Logf("worst wake %v late over a %v pause", worst, pauseFor)
	if worst < pauseFor*2/3 {
		t.Errorf("the meter saw at most %v late over a %v pause", worst, pauseFor)
	}
}
