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

// Verdicts (Result.Result): the own cases' words (conformance/h2), declared once there.
const (
	Passed = h2.Passed
	Failed = h2.Failed
)

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
	Cut           bool    `json:"cut"`
	LatencyOK     bool    `json:"latency_ok"`
	Result        string  `json:"result"`
	Reason        string  `json:"reason"`
}

// Report is report.json.
type Report struct {
	Probes []Result `json:"probes"`
}

// Write replaces path in one step: h2probe rewrites the report after every probe, and a
// reader that stops it early must not find half a file.
func (r *Report) Write(path string) error {
	if r.Probes == nil {
		r.Probes = []Result{} // "probes": [], never null
	}
	return jsonfile.Write(path, r)
}
