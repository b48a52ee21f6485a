package covgate

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
)

// SelectFunctions narrows a gcovr JSON tracefile (--json, format 0.6) to the functions whose
// name matches one of patterns (whole name), keeping their lines and branches and dropping the
// rest, so gcovr can judge part of a file (a decoder next to its encoder in one .c file).
// gcovr's tracefile gives each function's first line only; a line belongs to the function
// that starts last at or before it (C has no nested functions). Unknown fields are kept.
func SelectFunctions(in, out string, patterns []string) (kept []string, err error) {
	data, err := os.ReadFile(in)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", in, err)
	}
	var files []map[string]json.RawMessage
	if err := json.Unmarshal(doc["files"], &files); err != nil {
		return nil, fmt.Errorf("%s: files: %v", in, err)
	}
	res := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		res[i] = regexp.MustCompile(`^(?:` + p + `)$`)
	}
	match := func(name string) bool {
		for _, re := range res {
			if re.MatchString(name) {
				return true
			}
		}
		return false
	}
	var outFiles []map[string]json.RawMessage
	for _, f := range files {
		var name string
		_ = json.Unmarshal(f["file"], &name)
		var funcs, lines []map[string]json.RawMessage
		if err := json.Unmarshal(f["functions"], &funcs); err != nil {
			return nil, fmt.Errorf("%s: %s: functions: %v", in, name, err)
		}
		if err := json.Unmarshal(f["lines"], &lines); err != nil {
			return nil, fmt.Errorf("%s: %s: lines: %v", in, name, err)
		}
		type start struct {
			line int
			keep bool
		}
		var starts []start
		var keptFuncs []map[string]json.RawMessage
		for _, fn := range funcs {
			var fname string
			var line int
			_ = json.Unmarshal(fn["name"], &fname)
			if err := json.Unmarshal(fn["lineno"], &line); err != nil {
				return nil, fmt.Errorf("%s: %s: function %s: lineno: %v", in, name, fname, err)
			}
			k := match(fname)
			starts = append(starts, start{line, k})
			if k {
				keptFuncs = append(keptFuncs, fn)
				kept = append(kept, name+":"+fname)
			}
		}
		if len(keptFuncs) == 0 {
			continue
		}
		sort.Slice(starts, func(i, j int) bool { return starts[i].line < starts[j].line })
		var keptLines []map[string]json.RawMessage
		for _, l := range lines {
			var n int
			if err := json.Unmarshal(l["line_number"], &n); err != nil {
				return nil, fmt.Errorf("%s: %s: line_number: %v", in, name, err)
			}
			i := sort.Search(len(starts), func(i int) bool { return starts[i].line > n }) - 1
			if i >= 0 && starts[i].keep {
				keptLines = append(keptLines, l)
			}
		}
		f["functions"], _ = json.Marshal(keptFuncs)
		f["lines"], _ = json.Marshal(keptLines)
		outFiles = append(outFiles, f)
	}
	if outFiles == nil {
		outFiles = []map[string]json.RawMessage{}
	}
	doc["files"], _ = json.Marshal(outFiles)
	data, err = json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return kept, os.WriteFile(out, data, 0o644)
}
