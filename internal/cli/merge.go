package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/run"
)

// runMerge combines the folders of one matrix run in N shards (--shard i/N, the same flags and
// seed) into one run folder, then runs the suite over the merged results with no cell left to
// run: result.json, junit.xml, the table and the baseline verdict come from the same code as an
// unsharded run's.
func runMerge(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "merge", "SHARD-DIR...")
	out := fs.String("out", filepath.Join(e.root, "out"), "output `dir`; the merged run is <dir>/<suite>/<run-id>")
	id := fs.String("run-id", "", "the merged run's `id` (required; a new folder)")
	baseline := fs.String("baseline", "", "the known findings `file` that judges the merged run (default: the suite's "+
		"conformance/<suite>/expected.yml when the shards ran its own data; none: every failed cell fails)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	dirs := fs.Args()
	switch {
	case *id == "":
		return badInputf("--run-id: required (the merged run's id)")
	case !run.ValidID(*id):
		return badInputf("--run-id %q: want lowercase letters, digits, - and _ (max 48, starting alphanumeric)", *id)
	case len(dirs) == 0:
		return badInputf("no shard folders given (wirelab merge --run-id ID DIR...)")
	}
	infos, err := checkShards(dirs)
	if err != nil {
		return err
	}
	results, err := shardResults(dirs, infos)
	if err != nil {
		return err
	}
	suiteName := infos[0].Suite
	target, err := filepath.Abs(filepath.Join(*out, suiteName, *id))
	if err != nil {
		return err
	}
	if _, err := os.Stat(target); err == nil {
		return badInputf("--run-id %s: %s exists (choose a new id)", *id, target)
	}
	if err := assembleMerged(target, dirs, infos, results); err != nil {
		_ = os.RemoveAll(target)
		return err
	}
	fmt.Fprintf(e.stdout, "merge: %d shards, %d cells -> %s\n", len(dirs), len(results), target)
	s := e.suites.Find(suiteName)
	if s == nil {
		_ = os.RemoveAll(target)
		return badInputf("%s: suite %q is not a registered suite (%s)", filepath.Join(dirs[0], runInfoFile), suiteName, strings.Join(e.suites.Names(), ", "))
	}
	me := *e
	me.merging = true
	suiteArgs := append(slices.Clone(infos[0].Args), "--run-id", *id, "--out", *out, "--resume")
	if *baseline != "" {
		suiteArgs = append(suiteArgs, "--baseline", *baseline)
	}
	return runSuite(ctx, &me, s, suiteArgs)
}

// checkShards reads each folder's run.json: one suite, the same flags and seed, and shards 1..N
// of one N, each once.
func checkShards(dirs []string) ([]runInfo, error) {
	infos := make([]runInfo, len(dirs))
	seen := map[int]string{}
	n := 0
	for i, d := range dirs {
		info, err := readRunInfo(d)
		if err != nil {
			return nil, err
		}
		file := filepath.Join(d, runInfoFile)
		part, err := matrix.ParseShard(info.Shard)
		switch {
		case err != nil:
			return nil, badInputf("%s: shard: %v", file, err)
		case info.Shard == "":
			return nil, badInputf("%s: shard: empty (a whole run, not a --shard i/N part)", file)
		case i > 0 && info.Suite != infos[0].Suite:
			return nil, badInputf("%s: suite: %s, but %s is %s", file, info.Suite, dirs[0], infos[0].Suite)
		case i > 0 && !slices.Equal(info.Args, infos[0].Args):
			return nil, badInputf("%s: args: %s, but %s ran %s (shards of one matrix share flags and seed)", file,
				strings.Join(info.Args, " "), dirs[0], strings.Join(infos[0].Args, " "))
		case i > 0 && part.N != n:
			return nil, badInputf("%s: shard: %s, but %s is part of %d", file, info.Shard, dirs[0], n)
		case seen[part.I] != "":
			return nil, badInputf("%s: shard: %s again (also %s)", file, info.Shard, seen[part.I])
		}
		n, seen[part.I], infos[i] = part.N, d, info
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if seen[i] == "" {
			missing = append(missing, strconv.Itoa(i)+"/"+strconv.Itoa(n))
		}
	}
	if len(missing) > 0 {
		return nil, badInputf("shards %s missing (give every part's folder)", strings.Join(missing, ", "))
	}
	return infos, nil
}

// shardResults reads every shard's results.jsonl; a cell in two shards is bad input.
func shardResults(dirs []string, infos []runInfo) ([]shardResult, error) {
	var all []shardResult
	from := map[string]string{}
	for i, d := range dirs {
		path := filepath.Join(d, "results.jsonl")
		rs, err := matrix.ReadResults(path)
		if err != nil {
			return nil, badInputf("%s: %v", path, err)
		}
		for _, r := range rs {
			if other := from[r.Key()]; other != "" {
				return nil, badInputf("%s: cell %s is also in %s", path, r.Label(), other)
			}
			from[r.Key()] = path
			all = append(all, shardResult{r, i})
		}
	}
	return all, nil
}

// shardResult is a result and the index of the shard folder it came from.
type shardResult struct {
	matrix.Result
	shard int
}
