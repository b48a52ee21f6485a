package fuzzcov

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// crashMeta is crashes/<id>/meta.json as fuzz/bin/triage.sh writes it.
type crashMeta struct {
	ID             string `json:"id"`
	Signature      string `json:"signature"`
	Count          int    `json:"count"`
	InputBytes     int64  `json:"input_bytes"`
	MinimizedBytes int64  `json:"minimized_bytes"`
	Reproduce      string `json:"reproduce"`
}

type link struct{ Name, Href string }

// crash is one deduplicated crash with what the report shows of it.
type crash struct {
	crashMeta
	Stack string // the top of the sanitizer report
	Links []link
}

// crashFiles are the files triage.sh leaves per crash, in the order they are linked.
var crashFiles = []string{"minimized", "input", "stack.txt", "meta.json"}

// loadCrashes reads every crashes/<id>/ of a run, most frequent first.
func loadCrashes(outDir string, r *run, l linker) ([]crash, []string, error) {
	ids, err := subdirs(filepath.Join(outDir, filepath.FromSlash(r.Rel), "crashes"))
	if err != nil {
		return nil, nil, err
	}
	var out []crash
	var warns []string
	for _, id := range ids {
		rel := path.Join(r.Rel, "crashes", id)
		dir := filepath.Join(outDir, filepath.FromSlash(rel))
		c := crash{crashMeta: crashMeta{ID: id}}
		err := readJSON(filepath.Join(dir, "meta.json"), &c.crashMeta)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			warns = append(warns, rel+": no meta.json (triage did not finish)")
			c.Signature = readTrimmed(filepath.Join(dir, "signature.txt"))
			c.Reproduce = readTrimmed(filepath.Join(dir, "reproduce.txt"))
		case err != nil:
			return nil, nil, err
		}
		if raw, err := os.ReadFile(filepath.Join(dir, "stack.txt")); err == nil {
			c.Stack = stackTop(string(raw), 12)
		}
		for _, f := range crashFiles {
			if h := l.href(path.Join(rel, f)); h != "" {
				c.Links = append(c.Links, link{f, h})
			}
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Count > out[j].Count })
	return out, warns, nil
}

func readTrimmed(p string) string {
	b, _ := os.ReadFile(p)
	return strings.TrimSpace(string(b))
}

var (
	// reportStart matches the first line of a sanitizer or libFuzzer report (as signature.py does).
	reportStart = regexp.MustCompile(`ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|ALARM: working on the last Unit`)
	frameLine   = regexp.MustCompile(`^\s*#(\d+) 0x[0-9a-f]+ in (\S+)`)
	buildID     = regexp.MustCompile(` \(BuildId: [0-9a-f]+\)$`)
)

// stackTop returns the report's headline and the frames of its first stack trace down to the
// harness entry point: libFuzzer's banner before it, the driver frames below
// LLVMFuzzerTestOneInput and the allocation/free stacks after it are the same for every crash,
// and stack.txt is linked for the rest.
func stackTop(report string, frames int) string {
	lines := strings.Split(strings.ReplaceAll(report, "\r\n", "\n"), "\n")
	start := -1
	for i, l := range lines {
		if reportStart.MatchString(l) {
			start = i
			break
		}
	}
	if start < 0 {
		// No recognizable report: the end of the output is where a failure usually shows.
		return strings.TrimSpace(strings.Join(lines[max(0, len(lines)-frames):], "\n"))
	}
	var out []string
	seen := 0
	for _, l := range lines[start:] {
		l = buildID.ReplaceAllString(strings.TrimRight(l, " \t"), "")
		m := frameLine.FindStringSubmatch(l)
		if m == nil {
			if seen > 0 || len(out) >= 4 {
				break // the end of the first trace, or a preamble without frames
			}
			out = append(out, l)
			continue
		}
		if seen > 0 && m[1] == "0" {
			break // the next trace (allocation or free site)
		}
		if seen++; seen > frames {
			out = append(out, "    ...")
			break
		}
		out = append(out, l)
		if m[2] == "LLVMFuzzerTestOneInput" {
			break
		}
	}
	return strings.Join(out, "\n")
}
