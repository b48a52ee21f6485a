package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// shardDir writes a shard run folder as a --shard run leaves it: run.json, results.jsonl and a
// cell folder per result.
func shardDir(t *testing.T, root, name string, info runInfo, cells ...string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	info.Dir = "/ran/on/another/machine/out/quic/ci-7"
	must(t, os.MkdirAll(filepath.Join(dir, "certs"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "certs", "ca.pem"), []byte(name), 0o644))
	b, _ := json.Marshal(info)
	must(t, os.WriteFile(filepath.Join(dir, runInfoFile), b, 0o644))
	var lines []string
	for _, c := range cells {
		must(t, os.MkdirAll(filepath.Join(dir, "quic-go_"+c, "handshake", "sim"), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "quic-go_"+c, "handshake", "sim", "trace.pcap"), []byte(c), 0o644))
		r := matrix.Result{Cell: matrix.Cell{Server: "quic-go", Client: c, Case: "handshake"}, Result: "succeeded", Dir: filepath.Join(info.Dir, "quic-go_"+c, "handshake")}
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	must(t, os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	return dir
}

// Shards of different matrices, a shard twice or one missing are bad input, found before any
// folder is made.
func TestMergeRefusesShardsOfDifferentRuns(t *testing.T) {
	root := fakeRepo(t, nil)
	out := filepath.Join(root, "out")
	args := []string{"--seed=7", "--tests=handshake"}
	s1 := shardDir(t, root, "s1", runInfo{Suite: "quic", Args: args, Shard: "1/2"}, "ngtcp2")
	s2 := shardDir(t, root, "s2", runInfo{Suite: "quic", Args: args, Shard: "2/2"}, "aioquic")
	other := shardDir(t, root, "other", runInfo{Suite: "quic", Args: []string{"--seed=8", "--tests=handshake"}, Shard: "2/2"}, "aioquic")
	again := shardDir(t, root, "again", runInfo{Suite: "quic", Args: args, Shard: "1/2"}, "aioquic")
	whole := shardDir(t, root, "whole", runInfo{Suite: "quic", Args: args}, "aioquic")
	dup := shardDir(t, root, "dup", runInfo{Suite: "quic", Args: args, Shard: "2/2"}, "ngtcp2")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{s1, s2}, "--run-id: required"},
		{[]string{"--run-id", "m", s1}, "shards 2/2 missing"},
		{[]string{"--run-id", "m", s1, other}, "other/run.json: args:"},
		{[]string{"--run-id", "m", s1, again}, "again/run.json: shard: 1/2 again"},
		{[]string{"--run-id", "m", s1, whole}, "whole/run.json: shard: empty"},
		{[]string{"--run-id", "m", s1, dup}, "dup/results.jsonl: cell quic-go_ngtcp2/handshake is also in"},
		{[]string{"--run-id", "m", s1, filepath.Join(root, "nosuch")}, "nosuch/run.json: missing"},
	} {
		code, _, errOut := wl(append([]string{"merge", "--out", out}, c.args...)...)
		if code != ExitBadInput || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "quic", "m")); err == nil {
		t.Error("a refused merge left its run folder")
	}
}

// The merged folder holds every shard's cells, results naming folders under it, and a run.json
// without a shard; the first shard's run files (certificates) are kept.
func TestAssembleMergedMovesCellsUnderTheRun(t *testing.T) {
	root := t.TempDir()
	args := []string{"--seed=7"}
	dirs := []string{
		shardDir(t, root, "s1", runInfo{Suite: "quic", Args: args, Shard: "1/2"}, "ngtcp2"),
		shardDir(t, root, "s2", runInfo{Suite: "quic", Args: args, Shard: "2/2"}, "aioquic"),
	}
	infos, err := checkShards(dirs)
	must(t, err)
	results, err := shardResults(dirs, infos)
	must(t, err)
	target := filepath.Join(root, "out", "quic", "m")
	must(t, assembleMerged(target, dirs, infos, results))
	got, err := matrix.ReadResults(filepath.Join(target, "results.jsonl"))
	must(t, err)
	if len(got) != 2 {
		t.Fatalf("%d results", len(got))
	}
	for _, r := range got {
		if b, err := os.ReadFile(filepath.Join(r.Dir, "sim", "trace.pcap")); err != nil || string(b) != r.Client {
			t.Errorf("%s: %q %v", r.Dir, b, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(target, "certs", "ca.pem")); string(b) != "s1" {
		t.Errorf("certs from %q, want the first shard's", b)
	}
	info, err := readRunInfo(target)
	if err != nil || info.Shard != "" || info.Dir != target || strings.Join(info.Args, " ") != "--seed=7" {
		t.Errorf("run.json %+v %v", info, err)
	}
}

// run.json records the flags that choose the matrix and the seed, not where or how fast it ran.
func TestInvocationKeepsOnlyMatrixFlags(t *testing.T) {
	fs := newFlags(&env{root: t.TempDir()}, "quic", "")
	mf := fs.matrixFlags(suite.Info{Name: "quic"})
	fs.String("tests", "", "")
	_, err := fs.parse([]string{"--tests", "handshake", "--shard", "2/3", "-j", "4", "--run-id", "x", "--seed", "9", "--repeat", "2"})
	must(t, err)
	if got := strings.Join(invocation(mf, 9), " "); got != "--repeat=2 --tests=handshake --seed=9" {
		t.Errorf("invocation %q", got)
	}
}

// A merge whose shards lack a cell of the plan names the cell.
func TestPlanCoveredNamesMissingCells(t *testing.T) {
	cells := []matrix.PlanCell{{Cell: matrix.Cell{Server: "a", Client: "b", Case: "c"}}, {Cell: matrix.Cell{Server: "a", Client: "b", Case: "d"}}}
	done := []matrix.Result{{Cell: matrix.Cell{Server: "a", Client: "b", Case: "c"}, Result: "succeeded"}}
	if err := planCovered(cells, done); err == nil || !strings.Contains(err.Error(), "1 cells of the matrix are in none of the shards: a_b/d") {
		t.Errorf("%v", err)
	}
	if err := planCovered(cells[:1], done); err != nil {
		t.Error(err)
	}
}
