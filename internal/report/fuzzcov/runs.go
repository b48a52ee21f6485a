package fuzzcov

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
)

// stats is out/fuzz/<target>/<engine>/<run>/stats.json as fuzz/bin/stats.py writes it: the
// campaign.json fields, the latest totals, a sample every 5 s, and after triage the crashes.
type stats struct {
	Target      string   `json:"target"`
	Engine      string   `json:"engine"`
	Run         string   `json:"run"`
	DurationS   float64  `json:"duration_s"`
	Jobs        int      `json:"jobs"`
	StartedUnix float64  `json:"started_unix"`
	Sources     []string `json:"sources"`

	ElapsedS   float64  `json:"elapsed_s"`
	TotalExecs int64    `json:"total_execs"`
	ExecsPerS  float64  `json:"execs_per_s"`
	CorpusSize int      `json:"corpus_size"`
	Coverage   coverage `json:"coverage"`
	RawCrashes int      `json:"raw_crashes"`
	Timeseries []sample `json:"timeseries"`
	// Crashes is written by the final pass after triage; nil means the campaign is still
	// running or was interrupted before triage.
	Crashes *struct {
		Raw    int         `json:"raw"`
		Unique int         `json:"unique"`
		List   []crashMeta `json:"list"`
	} `json:"crashes"`
}

// coverage is libFuzzer's cov/ft or AFL++'s edges/map size; the other pair is absent.
type coverage struct {
	Cov      *int64 `json:"cov"`
	Features *int64 `json:"features"`
	Edges    *int64 `json:"edges"`
	MapSize  *int64 `json:"map_size"`
}

type sample struct {
	T         float64  `json:"t"`
	Execs     int64    `json:"execs"`
	ExecsPerS float64  `json:"execs_per_s"`
	Corpus    int      `json:"corpus"`
	Coverage  coverage `json:"coverage"`
	Crashes   int      `json:"crashes"`
}

// Run states shown in the tables.
const (
	stateDone        = "done"
	stateRunning     = "running"
	stateInterrupted = "interrupted"
	stateNoStats     = "no stats"
)

// run is one campaign folder.
type run struct {
	Target, Engine, Name string
	Rel                  string // out/-relative, slash-separated: fuzz/<target>/<engine>/<run>
	Stats                stats
	State                string
	Warn                 string // why the run's data is incomplete, if it is
}

// findRuns lists every campaign under outDir/fuzz: folders <target>/<engine>/<run>/ holding a
// stats.json or campaign.json (the build cache in fuzz/build and other files are skipped).
// A corrupted file is an error.
func findRuns(outDir string) ([]*run, error) {
	var runs []*run
	root := filepath.Join(outDir, "fuzz")
	targets, err := subdirs(root)
	if err != nil {
		return nil, err
	}
	for _, t := range targets {
		if t == "build" {
			continue // fuzz/build.sh's build cache (FUZZ_BUILD=/out/fuzz/build)
		}
		engines, err := subdirs(filepath.Join(root, t))
		if err != nil {
			return nil, err
		}
		for _, e := range engines {
			names, err := subdirs(filepath.Join(root, t, e))
			if err != nil {
				return nil, err
			}
			for _, n := range names {
				r, err := loadRun(outDir, t, e, n)
				if err != nil {
					return nil, err
				}
				if r != nil {
					runs = append(runs, r)
				}
			}
		}
	}
	return runs, nil
}

// loadRun reads one run folder; it returns nil (and no error) for folders that are not runs.
func loadRun(outDir, target, engine, name string) (*run, error) {
	rel := path.Join("fuzz", target, engine, name)
	dir := filepath.Join(outDir, filepath.FromSlash(rel))
	r := &run{Target: target, Engine: engine, Name: name, Rel: rel}
	statsPath := filepath.Join(dir, "stats.json")
	err := readJSON(statsPath, &r.Stats)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// The campaign never wrote a sample: show it from campaign.json so it is not silently lost.
		cerr := readJSON(filepath.Join(dir, "campaign.json"), &r.Stats)
		if errors.Is(cerr, fs.ErrNotExist) {
			return nil, nil
		}
		if cerr != nil {
			return nil, cerr
		}
		r.State = stateNoStats
		r.Warn = rel + ": no stats.json (the campaign stopped before its first sample)"
	case err != nil:
		return nil, err
	case r.Stats.Target == "":
		return nil, missingField(statsPath, "target")
	case r.Stats.Engine == "":
		return nil, missingField(statsPath, "engine")
	case exists(filepath.Join(dir, ".fuzzing")):
		r.State = stateRunning
	case r.Stats.Crashes == nil:
		r.State = stateInterrupted
		r.Warn = rel + ": no crash triage in stats.json (the campaign was interrupted)"
	default:
		r.State = stateDone
	}
	return r, nil
}

// latest picks the newest run per target and engine (by start time, then by name: run ids
// begin with a UTC timestamp), and returns them sorted by target and engine.
func latest(runs []*run) []*run {
	best := map[[2]string]*run{}
	var keys [][2]string
	for _, r := range runs {
		k := [2]string{r.Target, r.Engine}
		b, ok := best[k]
		if !ok {
			keys = append(keys, k)
		}
		if !ok || newer(r, b) {
			best[k] = r
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	out := make([]*run, len(keys))
	for i, k := range keys {
		out[i] = best[k]
	}
	return out
}

func newer(a, b *run) bool {
	if a.Stats.StartedUnix != b.Stats.StartedUnix {
		return a.Stats.StartedUnix > b.Stats.StartedUnix
	}
	return a.Name > b.Name
}

// subdirs returns the names of dir's subfolders, sorted; a missing dir has none.
func subdirs(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && e.Name()[0] != '.' {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
