package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
)

// runLevelFiles are what the suite writes for the whole run: the merge writes results.jsonl and
// run.json itself and the suite rewrites the rest, so no shard's copy is carried over.
var runLevelFiles = map[string]bool{"results.jsonl": true, "result.json": true, "junit.xml": true, runInfoFile: true,
	"bench.csv": true, "upload.csv": true}

// assembleMerged makes the merged run folder: every shard's cell folders (hard links where the
// file system allows, else copies), its results with their folders moved under target, and a
// run.json without a shard.
func assembleMerged(target string, dirs []string, infos []runInfo, results []shardResult) error {
	if err := os.MkdirAll(target, 0o755); err != nil {
		return err
	}
	for _, d := range dirs {
		if err := linkTree(d, target); err != nil {
			return err
		}
	}
	j, _, err := matrix.OpenJournal(filepath.Join(target, "results.jsonl"))
	if err != nil {
		return err
	}
	defer j.Close()
	for _, sr := range results {
		r := sr.Result
		from := infos[sr.shard].Dir
		if r.Dir, err = moveUnder(r.Dir, from, target); err != nil {
			return badInputf("%s: cell %s: %v", filepath.Join(dirs[sr.shard], "results.jsonl"), r.Label(), err)
		}
		if r.Repeat != nil {
			rep := *r.Repeat
			rep.Of = append([]matrix.Repetition(nil), rep.Of...)
			for i := range rep.Of {
				if rep.Of[i].Dir, err = moveUnder(rep.Of[i].Dir, from, target); err != nil {
					return badInputf("%s: cell %s: %v", filepath.Join(dirs[sr.shard], "results.jsonl"), r.Label(), err)
				}
			}
			r.Repeat = &rep
		}
		if err := j.Add(r); err != nil {
			return err
		}
	}
	info := infos[0]
	info.Shard, info.Dir = "", target
	return writeJSON(filepath.Join(target, runInfoFile), info)
}

// moveUnder is dir (a folder under the shard's run folder from, where it ran) under target.
func moveUnder(dir, from, target string) (string, error) {
	if dir == "" {
		return "", nil
	}
	rel, err := filepath.Rel(from, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("dir %s is not under the shard's run folder %s (run.json dir)", dir, from)
	}
	return filepath.Join(target, rel), nil
}

// linkTree puts src's files under dst (run-level files at src's top left out; a file already in
// dst, such as the run's certificates from an earlier shard, kept).
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if rel == "." {
			return nil
		}
		if !strings.Contains(rel, string(filepath.Separator)) && runLevelFiles[rel] {
			return nil
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if err := os.Symlink(link, to); err != nil && !os.IsExist(err) {
				return err
			}
			return nil
		}
		if _, err := os.Lstat(to); err == nil {
			return nil
		}
		if os.Link(path, to) == nil {
			return nil
		}
		return copyFile(path, to)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
