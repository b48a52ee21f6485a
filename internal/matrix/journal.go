package matrix

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Journal appends cell results to results.jsonl as they finish, so an interrupted run keeps
// them and --resume can skip them.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
}

// ReadResults reads the results in a results.jsonl file; lines that are not results (cut by a
// crash, or foreign) are skipped.
func ReadResults(path string) ([]Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r Result
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Result != "" {
			out = append(out, r)
		}
	}
	return out, nil
}

// ReadJournal reads a results.jsonl file for readers that must not guess (the report): every
// line must be a result, else the error names the file and the line. Only a last line without
// its newline (a run killed while writing it) is left out, as ReadResults leaves it out.
func ReadJournal(path string) ([]Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Result
	br := bufio.NewReaderSize(f, 1<<16)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return out, nil // an empty rest, or a line cut before its newline
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Result
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: not a result: %v", path, n, err)
		}
		switch {
		case r.Result != Succeeded && r.Result != Failed && r.Result != Unsupported && r.Result != UnsupportedAtRunTime:
			return nil, fmt.Errorf("%s:%d: result %q: want succeeded, failed, unsupported or %s", path, n, r.Result, UnsupportedAtRunTime)
		case r.Server == "" || r.Case == "":
			return nil, fmt.Errorf("%s:%d: a result without server or case", path, n)
		}
		out = append(out, r)
	}
}

// OpenJournal opens (appending) path and returns the results already in it. A last line cut
// before its newline (the run was killed while writing it) is cut off first, so the next
// result starts a line of its own instead of being glued to the fragment.
func OpenJournal(path string) (*Journal, []Result, error) {
	done, _ := ReadResults(path) // a missing file is a new run
	if err := cutUnterminated(path); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return &Journal{f: f, path: path}, done, nil
}

// cutUnterminated truncates path after its last newline (nothing when it ends in one, is empty
// or does not exist).
func cutUnterminated(path string) error {
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 || data[len(data)-1] == '\n' {
		return nil
	}
	if err := os.Truncate(path, int64(bytes.LastIndexByte(data, '\n')+1)); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Add writes result lines (a cell's row and its sub-cases', Result.Rows) in one write and syncs
// them. A write that fails (a full disk) is cut back to where the file ended, so the journal never
// holds half a cell that the next one would spoil.
func (j *Journal) Add(rs ...Result) error {
	var line []byte
	for i, r := range rs {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if i > 0 {
			line = append(line, '\n')
		}
		line = append(line, b...)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	st, err := j.f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", j.path, err)
	}
	_, err = j.f.Write(append(line, '\n'))
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		_ = j.f.Truncate(st.Size())
		return fmt.Errorf("%s: %w", j.path, err)
	}
	return nil
}

// Close closes the journal.
func (j *Journal) Close() error { return j.f.Close() }
