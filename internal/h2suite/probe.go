package h2suite

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/wirelab/wirelab/internal/matrix"
)

// ProbeNotJudged is h2probe's result for a probe whose latency the machine left unjudgeable
// in every attempt (report format 2): the server cut the flood and no well-behaved request
// failed, but the machine was too busy to tell whether it kept serving.
const ProbeNotJudged = "not-judged"

// ProbeVerdict is one robustness probe as h2probe reports it. Format 2 adds the limit the p95
// was held to, the machine's numbers and the attempts; a format-1 report has none of them.
type ProbeVerdict struct {
	Probe        string  `json:"probe"`
	CVE          string  `json:"cve"`
	ServerAction string  `json:"server_action"` // goaway, closed, nothing
	GoawayCode   string  `json:"goaway_code"`
	FramesSent   int     `json:"frames_sent"`
	CutAfterMs   float64 `json:"cut_after_ms"`
	BaselineP95  float64 `json:"baseline_p95_ms"`
	DuringP95    float64 `json:"during_p95_ms"`
	GoodFailures int     `json:"good_failures"`
	LatencyLimit float64 `json:"latency_limit_ms"`
	// The machine (format 2): the probe's own worst late wake-up during the probe, the run
	// queue around it over the CPUs and the slack's scale it gave, the 1-minute load average
	// (-1: unknown), and how many attempts the verdict took.
	SchedDelayMax float64 `json:"sched_delay_max_ms"`
	RunQueue      float64 `json:"run_queue"`
	CPUs          int     `json:"cpus"`
	SlackScale    float64 `json:"slack_scale"`
	Load1m        float64 `json:"load_1m"`
	Attempts      int     `json:"attempts"`
	Cut           bool    `json:"cut"`
	LatencyOK     bool    `json:"latency_ok"`
	Result        string  `json:"result"`
	Reason        string  `json:"reason"`

	format int // the report's
}

// ReadProbeReport finds probe name's verdict in h2probe's report.json. A result h2probe does
// not write, or not-judged in a report without format 2, is an error naming the file.
func ReadProbeReport(path, name string) (ProbeVerdict, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ProbeVerdict{}, err
	}
	var rep struct {
		Format int            `json:"format"`
		Probes []ProbeVerdict `json:"probes"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return ProbeVerdict{}, fmt.Errorf("%s: not an h2probe report: %v", path, err)
	}
	for _, p := range rep.Probes {
		if p.Probe != name {
			continue
		}
		p.format = max(rep.Format, 1)
		switch {
		case p.Result != CasePassed && p.Result != CaseFailed && p.Result != ProbeNotJudged:
			return ProbeVerdict{}, fmt.Errorf("%s: probe %s: result %q", path, name, p.Result)
		case p.Result == ProbeNotJudged && p.format < 2:
			return ProbeVerdict{}, fmt.Errorf("%s: probe %s: result %q in a report of format %d", path, name, p.Result, p.format)
		}
		return p, nil
	}
	return ProbeVerdict{}, fmt.Errorf("%s: no verdict for probe %s", path, name)
}

// MemoryBound is how much a server container may grow during a probe: more is unbounded
// buffering (CVE-2019-9517's class), whatever the connection's fate.
const MemoryBound = 256 << 20

// Verdict combines h2probe's verdict with the server's memory growth (peak minus before, from
// the engine's stats): passed only if the server cut the abusive connection within the bound,
// the well-behaved client kept its latency, and memory stayed within MemoryBound. A probe
// h2probe did not judge (the machine too busy) is unsupported at run time, unless memory
// failed it: the memory bound does not depend on the machine's load.
func (p ProbeVerdict) Verdict(memGrowth int64) (result, reason, details string) {
	action := p.ServerAction
	if p.GoawayCode != "" {
		action += " " + p.GoawayCode
	}
	limit := ""
	if p.format >= 2 {
		limit = fmt.Sprintf(", limit %.0f ms", p.LatencyLimit)
	}
	details = fmt.Sprintf("%s: server %s after %d frames / %.0f ms; well-behaved p95 %.0f ms (baseline %.0f ms%s), %d failed; memory +%.1f MiB",
		p.Probe, action, p.FramesSent, p.CutAfterMs, p.DuringP95, p.BaselineP95, limit, p.GoodFailures, float64(memGrowth)/(1<<20))
	if p.format >= 2 {
		details += "; " + p.machine()
	}
	switch {
	case p.Result == CaseFailed:
		return matrix.Failed, p.Reason, details
	case memGrowth > MemoryBound:
		return matrix.Failed, fmt.Sprintf("the server's memory grew by %.0f MiB during the probe (bound %d MiB)", float64(memGrowth)/(1<<20), MemoryBound>>20), details
	case p.Result == ProbeNotJudged:
		return matrix.UnsupportedAtRunTime, p.Reason, details
	}
	return matrix.Succeeded, "", details
}

// machine says what the machine was doing during the probe, for the details.
func (p ProbeVerdict) machine() string {
	load := "unknown"
	if p.Load1m >= 0 {
		load = fmt.Sprintf("%.2f", p.Load1m)
	}
	s := fmt.Sprintf("machine: load %s, run queue %.1f on %d CPUs (slack x%.1f), probe woke up to %.0f ms late",
		load, p.RunQueue, p.CPUs, p.SlackScale, p.SchedDelayMax)
	if p.Attempts > 1 {
		s += fmt.Sprintf(", %d attempts", p.Attempts)
	}
	return s
}
