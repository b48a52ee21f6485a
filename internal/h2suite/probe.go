package h2suite

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/wirelab/wirelab/internal/matrix"
)

// ProbeVerdict is one robustness probe as h2probe reports it.
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
	Cut          bool    `json:"cut"`
	LatencyOK    bool    `json:"latency_ok"`
	Result       string  `json:"result"`
	Reason       string  `json:"reason"`
}

// ReadProbeReport finds probe name's verdict in h2probe's report.json.
func ReadProbeReport(path, name string) (ProbeVerdict, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ProbeVerdict{}, err
	}
	var rep struct {
		Probes []ProbeVerdict `json:"probes"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return ProbeVerdict{}, fmt.Errorf("%s: not an h2probe report: %v", path, err)
	}
	for _, p := range rep.Probes {
		if p.Probe == name {
			if p.Result != CasePassed && p.Result != CaseFailed {
				return ProbeVerdict{}, fmt.Errorf("%s: probe %s: result %q", path, name, p.Result)
			}
			return p, nil
		}
	}
	return ProbeVerdict{}, fmt.Errorf("%s: no verdict for probe %s", path, name)
}

// MemoryBound is how much a server container may grow during a probe: more is unbounded
// buffering (CVE-2019-9517's class), whatever the connection's fate.
const MemoryBound = 256 << 20

// Verdict combines h2probe's verdict with the server's memory growth (peak minus before, from
// the engine's stats): passed only if the server cut the abusive connection within the bound,
// the well-behaved client kept its latency, and memory stayed within MemoryBound.
func (p ProbeVerdict) Verdict(memGrowth int64) (result, reason, details string) {
	action := p.ServerAction
	if p.GoawayCode != "" {
		action += " " + p.GoawayCode
	}
	details = fmt.Sprintf("%s: server %s after %d frames / %.0f ms; well-behaved p95 %.0f ms (baseline %.0f ms), %d failed; memory +%.1f MiB",
		p.Probe, action, p.FramesSent, p.CutAfterMs, p.DuringP95, p.BaselineP95, p.GoodFailures, float64(memGrowth)/(1<<20))
	switch {
	case p.Result != CasePassed:
		return matrix.Failed, p.Reason, details
	case memGrowth > MemoryBound:
		return matrix.Failed, fmt.Sprintf("the server's memory grew by %.0f MiB during the probe (bound %d MiB)", float64(memGrowth)/(1<<20), MemoryBound>>20), details
	}
	return matrix.Succeeded, "", details
}
