package h2suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/conformance/h2/probe"
	"github.com/wirelab/wirelab/internal/matrix"
)

// h2probe's report, format 2: what images/h2probe writes.
const probeReport2 = `{"format":2,"probes":[
 {"probe":"rapid-reset","cve":"CVE-2023-44487","server_action":"goaway","goaway_code":"NO_ERROR","frames_sent":11008,"cut_after_ms":269.1,
  "baseline_p50_ms":1.2,"baseline_p95_ms":1.7,"during_p50_ms":3.8,"during_p95_ms":220.3,"good_failures":0,"latency_limit_ms":501.7,
  "sched_delay_max_ms":16.9,"sched_delay_p99_ms":3.3,"run_queue":10,"cpus":2,"slack_scale":5,"load_1m":9.8,"attempts":1,
  "cut":true,"latency_ok":true,"result":"passed","reason":"server sent GOAWAY NO_ERROR after 11008 frames / 269 ms; well-behaved p95 220.3 ms"},
 {"probe":"ping-flood","cve":"CVE-2019-9512","server_action":"goaway","goaway_code":"ENHANCE_YOUR_CALM","frames_sent":20000,"cut_after_ms":40,
  "baseline_p95_ms":2,"during_p95_ms":930,"latency_limit_ms":402,"sched_delay_max_ms":12,"run_queue":8,"cpus":2,"slack_scale":4,"load_1m":-1,
  "attempts":1,"cut":true,"latency_ok":false,"result":"failed","reason":"well-behaved p95 930.0 ms during the probe > limit 402.0 ms (baseline p95 2.0 ms); machine: ..."},
 {"probe":"reset-flood","cve":"CVE-2019-9514","server_action":"closed","frames_sent":20000,"cut_after_ms":50,"baseline_p95_ms":2,
  "during_p95_ms":2000,"latency_limit_ms":802,"sched_delay_max_ms":40,"run_queue":20,"cpus":2,"slack_scale":10,"load_1m":19.5,"attempts":3,
  "cut":true,"latency_ok":false,"result":"not-judged","reason":"not judged, the machine too busy to tell: well-behaved p95 2000.0 ms during the probe > limit 802.0 ms"},
 {"probe":"settings-flood","result":"maybe"}]}`

func writeReport(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProbeVerdicts(t *testing.T) {
	p := writeReport(t, probeReport2)
	for _, c := range []struct {
		probe     string
		mem       int64
		result    string
		reason    string
		inDetails string
	}{
		{"rapid-reset", 10 << 20, matrix.Succeeded, "",
			"rapid-reset: server goaway NO_ERROR after 11008 frames / 269 ms; well-behaved p95 220 ms (baseline 2 ms, limit 502 ms), 0 failed; memory +10.0 MiB; machine: load 9.80, run queue 10.0 on 2 CPUs (slack x5.0), probe woke up to 17 ms late"},
		{"rapid-reset", MemoryBound + 1, matrix.Failed, "the server's memory grew by 256 MiB", "memory +256.0 MiB"},
		{"ping-flood", 0, matrix.Failed, "well-behaved p95 930.0 ms during the probe > limit 402.0 ms", "machine: load unknown, run queue 8.0 on 2 CPUs (slack x4.0)"},
		{"reset-flood", 0, matrix.UnsupportedAtRunTime, "not judged, the machine too busy to tell", "run queue 20.0 on 2 CPUs (slack x10.0), probe woke up to 40 ms late, 3 attempts"},
		// The machine does not excuse memory: a probe it left unjudged still fails on memory.
		{"reset-flood", MemoryBound + 1, matrix.Failed, "the server's memory grew", "3 attempts"},
	} {
		v, err := ReadProbeReport(p, c.probe)
		if err != nil {
			t.Fatal(err)
		}
		result, reason, details := v.Verdict(c.mem)
		if result != c.result || !strings.HasPrefix(reason, c.reason) || !strings.Contains(details, c.inDetails) {
			t.Errorf("%s (+%d bytes): got %s %q %q, want %s, reason starting %q, details containing %q",
				c.probe, c.mem, result, reason, details, c.result, c.reason, c.inDetails)
		}
	}
}

// TestProbeReportFormat1: h2probe before format 2 wrote no machine numbers and never
// not-judged; its verdicts still read, without a machine in the details.
func TestProbeReportFormat1(t *testing.T) {
	p := writeReport(t, `{"probes":[
 {"probe":"rapid-reset","server_action":"closed","frames_sent":7,"cut_after_ms":1,"baseline_p95_ms":1.6,"during_p95_ms":170.6,"cut":true,"result":"failed","reason":"slow"},
 {"probe":"ping-flood","cut":true,"result":"not-judged","reason":"busy"}]}`)
	v, err := ReadProbeReport(p, "rapid-reset")
	if err != nil {
		t.Fatal(err)
	}
	if result, _, details := v.Verdict(0); result != matrix.Failed || strings.Contains(details, "machine") || strings.Contains(details, "limit") {
		t.Errorf("format 1: %s %q", result, details)
	}
	if _, err := ReadProbeReport(p, "ping-flood"); err == nil || !strings.Contains(err.Error(), `result "not-judged" in a report of format 1`) {
		t.Errorf("not-judged in format 1: %v", err)
	}
}

func TestProbeReportErrors(t *testing.T) {
	p := writeReport(t, probeReport2)
	for name, want := range map[string]string{
		"settings-flood": `probe settings-flood: result "maybe"`,
		"empty-frames":   "no verdict for probe empty-frames",
	} {
		if _, err := ReadProbeReport(p, name); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "report.json") {
			t.Errorf("%s: %v, want an error naming the file and saying %s", name, err, want)
		}
	}
	if _, err := ReadProbeReport(writeReport(t, `{"probes": [`), "x"); err == nil || !strings.Contains(err.Error(), "not an h2probe report") {
		t.Errorf("truncated report: %v", err)
	}
}

// TestProbeReportFromH2probe: what the probe package writes is what the suite reads, field by
// field, not-judged included.
func TestProbeReportFromH2probe(t *testing.T) {
	p := filepath.Join(t.TempDir(), "report.json")
	rep := &probe.Report{Probes: []probe.Result{{Probe: "rapid-reset", ServerAction: probe.ActionClosed, Cut: true,
		DuringP95Ms: 300, LatencyLimitMs: 802, SchedDelayMaxMs: 45, RunQueue: 20, CPUs: 2, SlackScale: 10, Load1m: 19.5,
		Attempts: 3, Result: probe.NotJudged, Reason: "not judged, the machine too busy to tell"}}}
	if err := rep.Write(p); err != nil {
		t.Fatal(err)
	}
	v, err := ReadProbeReport(p, "rapid-reset")
	if err != nil {
		t.Fatal(err)
	}
	if v.LatencyLimit != 802 || v.SchedDelayMax != 45 || v.RunQueue != 20 || v.CPUs != 2 || v.SlackScale != 10 || v.Load1m != 19.5 || v.Attempts != 3 {
		t.Errorf("read back %+v", v)
	}
	if result, _, _ := v.Verdict(0); result != matrix.UnsupportedAtRunTime {
		t.Errorf("not-judged: %s", result)
	}
}
