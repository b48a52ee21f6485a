package matrix

import (
	"bufio"
	"encoding/json"
	"fmt"
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

// OpenJournal opens (appending) path and returns the results already in it.
func OpenJournal(path string) (*Journal, []Result, error) {
	done, _ := ReadResults(path) // a missing file is a new run
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return &Journal{f: f, path: path}, done, nil
}

// Add writes one result line and syncs it. A write that fails (a full disk) is cut back to
// where the file ended, so the journal never holds half a line that the next one would spoil.
func (j *Journal) Add(r Result) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
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
