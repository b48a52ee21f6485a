package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
)

// runInfoFile is how a matrix run was invoked: wirelab merge checks that shard folders belong to
// one matrix and re-runs the suite's summary over their results with exactly these flags.
const runInfoFile = "run.json"

// runInfo is run.json.
type runInfo struct {
	Suite string   `json:"suite"`
	Args  []string `json:"args"`  // the flags that choose the matrix (--seed included, run-local ones left out)
	Seed  uint64   `json:"seed"`  // also in Args; kept apart for people reading the file
	Shard string   `json:"shard"` // "i/N"; "" for a whole (or merged) run
	Dir   string   `json:"dir"`   // the run folder where it ran: results name their cells' folders under it
}

// runLocalFlags do not choose the matrix: where and how fast one machine runs its part. The
// baseline is recorded (the report judges the run by it; a merge's own --baseline comes last and
// wins).
var runLocalFlags = map[string]bool{"run-id": true, "resume": true, "j": true, "out": true, "keep": true, "shard": true, "seed": true,
	"plan": true, "build-images": true, "strict-baseline": true, "flags-from-env": true}

// invocation is the run's matrix-choosing flags as --name=value, sorted, with the seed.
func invocation(mf matrixFlags, seed uint64) []string {
	var args []string
	mf.fs.Visit(func(f *flag.Flag) {
		if !runLocalFlags[f.Name] {
			args = append(args, "--"+f.Name+"="+f.Value.String())
		}
	})
	sort.Strings(args)
	return append(args, "--seed="+strconv.FormatUint(seed, 10))
}

// writeRunInfo writes run.json unless the run has one (--resume keeps the first).
func writeRunInfo(dir string, mf matrixFlags, seed uint64) error {
	path := filepath.Join(dir, runInfoFile)
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	info := runInfo{Suite: mf.run.Suite, Args: invocation(mf, seed), Seed: seed, Dir: dir}
	if mf.part.N > 1 {
		info.Shard = fmt.Sprintf("%d/%d", mf.part.I, mf.part.N)
	}
	return writeJSON(path, info)
}

// readRunInfo reads dir's run.json; a missing or malformed one is bad input naming the file.
func readRunInfo(dir string) (runInfo, error) {
	path := filepath.Join(dir, runInfoFile)
	var info runInfo
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return info, badInputf("%s: missing (not a matrix run folder written by this wirelab)", path)
	}
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return info, badInputf("%s: %v", path, err)
	}
	if info.Suite == "" {
		return info, badInputf("%s: suite: empty", path)
	}
	return info, nil
}

// planCovered reports the plan's cells that no result covers: merged shards must hold them all.
func planCovered(cells []matrix.PlanCell, done []matrix.Result) error {
	have := map[string]bool{}
	for _, r := range done {
		have[r.Key()] = true
	}
	var missing []string
	for _, c := range cells {
		if !have[c.Key()] {
			missing = append(missing, c.Label())
		}
	}
	if len(missing) == 0 {
		return nil
	}
	n, more := len(missing), ""
	if n > 5 {
		missing, more = missing[:5], fmt.Sprintf(" and %d more", n-5)
	}
	return badInputf("%d cells of the matrix are in none of the shards: %s%s", n, strings.Join(missing, ", "), more)
}
