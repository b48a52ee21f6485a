package grpcwebsuite

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/matrix"
)

// conformanceCasesFile is where the conformance client lists every connectrpc case it ran
// (images/connectconformance: sut-forward run --cases).
const conformanceCasesFile = "cases.jsonl"

// ConformanceSubs reads a conformance cell's cases as its sub-cases (sub = "<config>/<case>"):
// passed, failed, or hung (failed: no answer within the stall time). A missing file is an error:
// the cell is then judged by itself.
func ConformanceSubs(cellDir string) ([]matrix.Result, error) {
	path := filepath.Join(cellDir, "client", conformanceCasesFile)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []matrix.Result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var c struct{ Config, Case, Result string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil || c.Config == "" || c.Case == "" {
			return nil, fmt.Errorf("%s:%d: not a case outcome (%v)", path, n, err)
		}
		r := matrix.Result{Cell: matrix.Cell{Sub: c.Config + "/" + c.Case}}
		switch c.Result {
		case "passed":
			r.Result = matrix.Succeeded
		case "failed":
			r.Result, r.Reason = matrix.Failed, "connectconformance: FAILED (connectconformance.txt has its message)"
		case "hung":
			r.Result, r.Reason = matrix.Failed, "connectconformance: hung (no answer within the stall time)"
		default:
			return nil, fmt.Errorf("%s:%d: result %q: want passed, failed or hung", path, n, c.Result)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no case", path)
	}
	return out, nil
}
