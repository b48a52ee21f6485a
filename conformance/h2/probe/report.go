package probe

import (
	"github.com/wirelab/wirelab/conformance/h2"
	"github.com/wirelab/wirelab/internal/jsonfile"
)

// What the server did to the abusive connection (Result.ServerAction).
const (
	ActionGoAway  = "goaway"  // sent GOAWAY (GoAwayCode names its error code)
	ActionClosed  = "closed"  // closed or reset the TCP connection without a GOAWAY
	ActionNothing = "nothing" // the connection was still open at the bound
	ActionError   = "error"   // the probe could not run (connect, handshake, baseline)
)

// Verdicts (Result.Result). NotJudged: the server cut the abusive connection and no
// well-behaved request failed, but their p95 exceeded the limit while the machine could explain
// it (the probe's own wake-ups were as late as the excess, or the run queue was beyond
// MaxSlackScale per CPU), in every attempt: the machine was too busy to tell.
const (
	Passed    = h2.Passed // the own cases' words (conformance/h2), declared once there
	Failed    = h2.Failed
	NotJudged = "not-judged"
)

// ReportFormat is report.json's version. 2: "format", the result not-judged, and the machine's
// numbers next to every verdict (latency_limit_ms, sched_delay_*, run_queue, cpus,
// slack_scale, load_1m, attempts); 1 (no "format") had none of them.
const ReportFormat = 2

// Result is one probe's entry in report.json.
type Result struct {
	Probe        string `json:"probe"`
	CVE          string `json:"cve"`
	ServerAction string `json:"server_action"`
	GoAwayCode   string `json:"goaway_code"` // e.g. ENHANCE_YOUR_CALM; empty without GOAWAY
	// FramesSent and CutAfterMs: at the first sign of the cut; for "nothing", when the flood
	// stopped at its bound. Counted from the end of the HTTP/2 handshake.
	FramesSent    int64   `json:"frames_sent"`
	CutAfterMs    float64 `json:"cut_after_ms"`
	BaselineP50Ms float64 `json:"baseline_p50_ms"`
	BaselineP95Ms float64 `json:"baseline_p95_ms"`
	DuringP50Ms   float64 `json:"during_p50_ms"`
	DuringP95Ms   float64 `json:"during_p95_ms"`
	GoodFailures  int     `json:"good_failures"` // well-behaved requests that failed, baseline included
	// LatencyLimitMs: what during_p95_ms was held to, from the baseline (latencyLimit).
	LatencyLimitMs float64 `json:"latency_limit_ms"`
	// The machine: how late the probe's own wake-ups were while the well-behaved client was
	// measured under the probe (worst, 99th percentile); the mean run queue (runnable tasks,
	// -1: unknown) before the flood and after the grace, over the CPUs the probe may use, and
	// the slack's scale it gave (machine.slackScale); the host's 1-minute load average as the
	// attempt began (-1: unknown). A container sees its host's load and run queue.
	SchedDelayMaxMs float64 `json:"sched_delay_max_ms"`
	SchedDelayP99Ms float64 `json:"sched_delay_p99_ms"`
	RunQueue        float64 `json:"run_queue"`
	CPUs            int     `json:"cpus"`
	SlackScale      float64 `json:"slack_scale"`
	Load1m          float64 `json:"load_1m"`
	Attempts        int     `json:"attempts"` // runs of the probe this verdict took (NotJudged ones repeat)
	Cut             bool    `json:"cut"`
	LatencyOK       bool    `json:"latency_ok"`
	Result          string  `json:"result"`
	Reason          string  `json:"reason"`
}

// Report is report.json.
type Report struct {
	Format int      `json:"format"` // ReportFormat
	Probes []Result `json:"probes"`
}

// Write replaces path in one step: h2probe rewrites the report after every probe, and a
// reader that stops it early must not find half a file.
func (r *Report) Write(path string) error {
	if r.Probes == nil {
		r.Probes = []Result{} // "probes": [], never null
	}
	r.Format = ReportFormat
	return jsonfile.Write(path, r)
}
