package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// checkShardsMergeToWhole runs the matrix of the whole run in wholeDir (args) again as 3 shards
// and merges them: result.json, junit.xml (timings aside) and the verdicts must equal the whole
// run's, and every result's folder must be in the merged run.
func checkShardsMergeToWhole(t *testing.T, wholeDir string, args []string) {
	t.Helper()
	bin := integration(t)
	id, out := runID(t, "it-shard"), t.TempDir()
	var dirs []string
	for _, part := range []string{"1/3", "2/3", "3/3"} {
		sid := id + "-" + part[:1]
		code, log := wirelab(t, bin, append([]string{"quic", "--run-id", sid, "--out", out, "-j", "2", "--shard", part}, args...)...)
		if code != 0 || !strings.Contains(log, "shard "+part+": ") {
			t.Fatalf("shard %s: exit %d\n%s", part, code, log)
		}
		assertNothingLeft(t, sid)
		dirs = append(dirs, filepath.Join(out, "quic", sid))
	}
	code, log := wirelab(t, bin, append([]string{"merge", "--out", out, "--run-id", id + "-m"}, dirs...)...)
	t.Log(log)
	if code != 0 {
		t.Fatalf("merge: exit %d", code)
	}
	if strings.Contains(log, "compliance:") {
		t.Error("the merge probed images: with no cell to run it needs none")
	}
	assertNothingLeft(t, id+"-m")
	merged := filepath.Join(out, "quic", id+"-m")
	if a, b := withoutTimings(t, filepath.Join(wholeDir, "result.json")), withoutTimings(t, filepath.Join(merged, "result.json")); !reflect.DeepEqual(a, b) {
		t.Errorf("merged result.json differs from the whole run's:\n%v\n%v", a, b)
	}
	if a, b := junitWithoutTimes(t, filepath.Join(wholeDir, "junit.xml")), junitWithoutTimes(t, filepath.Join(merged, "junit.xml")); a != b {
		t.Errorf("merged junit.xml differs from the whole run's:\n%s\n%s", a, b)
	}
	verdicts := func(dir string) map[string]string {
		m := map[string]string{}
		for _, c := range readJournal(t, filepath.Join(dir, "results.jsonl")) {
			m[c.Server+"_"+c.Client+"/"+c.Case] = c.Result
		}
		return m
	}
	if a, b := verdicts(wholeDir), verdicts(merged); !reflect.DeepEqual(a, b) {
		t.Errorf("verdicts differ: whole %v, merged %v", a, b)
	}
	data, _ := os.ReadFile(filepath.Join(merged, "results.jsonl"))
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct{ Dir string }
		_ = json.Unmarshal([]byte(l), &r)
		if !strings.HasPrefix(r.Dir, merged+"/") {
			t.Errorf("result dir %s not under the merged run", r.Dir)
		} else if _, err := os.Stat(filepath.Join(r.Dir, "sim", "trace_node_right.pcap")); err != nil {
			t.Errorf("merged cell: %v", err)
		}
	}
}

// withoutTimings is a result.json without its run's times and folder.
func withoutTimings(t *testing.T, path string) map[string]any {
	t.Helper()
	m := readResult(t, path)
	for _, k := range []string{"start_time", "end_time", "log_dir"} {
		delete(m, k)
	}
	return m
}

var junitTime = regexp.MustCompile(` time="[^"]*"`)

func junitWithoutTimes(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return junitTime.ReplaceAllString(string(b), "")
}
