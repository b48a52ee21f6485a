package covgate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeReport leaves what coverage/measure.sh leaves: gcovr's summaries and the gate's status.
func writeReport(t *testing.T, gateSummary, status string) string {
	t.Helper()
	dir := t.TempDir()
	whole := `{"line_covered": 900, "line_total": 1000, "branch_covered": 50, "branch_total": 100, "function_covered": 9, "function_total": 10, "files": []}`
	for name, data := range map[string]string{"summary.json": whole, "gate-summary.json": gateSummary, "gate.exit": status + "\n", "corpus-files": "42\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func testGate(t *testing.T) *Gate {
	f, err := Parse("gates.yml", []byte("targets:\n  t:\n    files: ['lib/x\\.c']\n    lines: 90\n    branches: 75\n    functions: 100\n"))
	if err != nil {
		t.Fatal(err)
	}
	return f.Gate("t")
}

const gateSummary = `{"line_covered": 899, "line_total": 1000, "branch_covered": 80, "branch_total": 100,
  "function_covered": 10, "function_total": 10, "files": [{"filename": "lib/x.c"}]}`

func TestJudgeCFromGcovr(t *testing.T) {
	// gcovr exit 2: the line gate failed. The line names target, metric, measured, threshold.
	ts := judgeC(testGate(t), writeReport(t, gateSummary, "2"), &TargetSummary{})
	if ts.Error != "" || len(ts.Broken) != 1 {
		t.Fatalf("%+v", ts)
	}
	if got := ts.Broken[0].String(); got != "coverage gate FAILED: t lines measured 89.9% < threshold 90.0%" {
		t.Fatalf("line %q", got)
	}
	if ts.CorpusFiles != 42 || ts.Gate["branches"].Percent != 80 || ts.Whole["lines"].Percent != 90 || ts.Files[0] != "lib/x.c" {
		t.Fatalf("summary %+v", ts)
	}
}

func TestJudgeCDisagreementIsAnError(t *testing.T) {
	// gcovr says all held (0) but the numbers say lines < 90: never pass silently.
	ts := judgeC(testGate(t), writeReport(t, gateSummary, "0"), &TargetSummary{})
	if ts.Error == "" || !strings.Contains(ts.Error, "disagree") {
		t.Fatalf("%+v", ts)
	}
}

func TestJudgeCGcovrError(t *testing.T) {
	ts := judgeC(testGate(t), writeReport(t, gateSummary, "1"), &TargetSummary{})
	if ts.Error == "" {
		t.Fatalf("gcovr exit 1 must be an error: %+v", ts)
	}
	ts = judgeC(testGate(t), writeReport(t, gateSummary, "x"), &TargetSummary{})
	if !strings.Contains(ts.Error, "no gcovr exit status") {
		t.Fatalf("%+v", ts)
	}
}

func TestJudgeCEmptyFileSet(t *testing.T) {
	empty := `{"line_covered": 0, "line_total": 0, "branch_covered": 0, "branch_total": 0, "function_covered": 0, "function_total": 0, "files": []}`
	ts := judgeC(testGate(t), writeReport(t, empty, "2"), &TargetSummary{})
	if len(ts.Broken) != 1 || !strings.Contains(ts.Broken[0].String(), "matched no measured line") {
		t.Fatalf("%+v", ts)
	}
}
