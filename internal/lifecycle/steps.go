package lifecycle

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/jsonfile"
)

// StepsFile is where a cell keeps how long each lifecycle step took: its fixed cost, visible.
const StepsFile = "lifecycle.json"

// Step is one lifecycle step and its seconds.
type Step struct {
	Name    string  `json:"step"`
	Seconds float64 `json:"seconds"`
}

// stepClock times the steps as they end.
type stepClock struct {
	last  time.Time
	steps []Step
}

func newStepClock() *stepClock { return &stepClock{last: time.Now()} }

// mark ends the step named name (it began where the last one ended).
func (c *stepClock) mark(name string) {
	now := time.Now()
	c.steps = append(c.steps, Step{Name: name, Seconds: now.Sub(c.last).Round(time.Millisecond).Seconds()})
	c.last = now
}

func (c *stepClock) write(path string) { _ = jsonfile.Write(path, c.steps) }

// LoadAverage is the machine's 1-minute load average (0 when /proc/loadavg cannot be read).
func LoadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}
